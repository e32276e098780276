// A software WebAuthn authenticator for the API tests of passkeys (docs/api.md "Passkeys"): ES256 keys from node:crypto,
// "none" attestation in CBOR, and assertions signed as a real authenticator signs them (over authenticatorData and the
// hash of clientDataJSON), so the server verifies them with its real checks. The browser tests use Chromium's own
// virtual authenticator instead (tests/e2e/passkeys.test.ts).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** x and y of the P-256 public key. */
  x: Buffer;
  y: Buffer;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** What a ceremony may change from an honest browser's answer: the origin it reports, the rp id it hashes, the counter. */
export interface Tampering {
  origin?: string;
  rpId?: string;
  /** The counter to report (an honest authenticator reports one more than last time). */
  counter?: number;
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftwareAuthenticator {
  readonly origin: string;
  readonly credentials: StoredCredential[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  /** The JSON `navigator.credentials.create()` gives for these options (SimpleWebAuthn's RegistrationResponseJSON). */
  create(options: CreationOptions, tampering: Tampering = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const rpId = tampering.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const credential: StoredCredential = {
      id: randomBytes(32),
      privateKey,
      x: Buffer.from(jwk.x!, "base64url"),
      y: Buffer.from(jwk.y!, "base64url"),
      rpId,
      userHandle: options.user.id,
      counter: tampering.counter ?? 0,
    };
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, credential.x],
        [-3, credential.y],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.authDataHead(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA, credential.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      Buffer.from(coseKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authData],
      ]),
    );
    const clientDataJSON = this.clientData("webauthn.create", tampering.challenge ?? options.challenge, tampering.origin);
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
    };
  }

  /**
   * The JSON `navigator.credentials.get()` gives (AuthenticationResponseJSON), signed with `credential` (the latest one
   * made unless given). The counter moves forward by one unless the tampering sets it.
   */
  get(options: RequestOptions, tampering: Tampering = {}, credential = this.credentials.at(-1)) {
    if (!credential) throw new Error("The software authenticator holds no credential");
    const rpId = tampering.rpId ?? options.rpId ?? credential.rpId;
    credential.counter = tampering.counter ?? credential.counter + 1;
    const authData = this.authDataHead(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED, credential.counter);
    const clientDataJSON = this.clientData("webauthn.get", tampering.challenge ?? options.challenge, tampering.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey); // DER, as WebAuthn's ES256
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }

  private authDataHead(rpId: string, flags: number, counter: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  }
}
