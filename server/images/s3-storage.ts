import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";

/** The S3_* settings (docs/api.md §1): any S3-compatible store (AWS, MinIO, Swift, Garage, R2...). */
export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Put before every object name: several sites (or test runs) can share a bucket. */
  prefix?: string;
}

/** Objects in one bucket under a prefix: read, write (whole, so a reader never sees part of one), remove. */
export interface ObjectStore {
  read(name: string): Promise<Buffer | null>;
  write(name: string, bytes: Buffer, contentType: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** The objects whose names start with `prefix` (a small folder: the start-up tidy's incoming/), with their age. */
  list(prefix: string): Promise<{ name: string; modifiedAt: number }[]>;
  /** Creates the bucket when it does not exist yet (at start). */
  ensureBucket(): Promise<void>;
  close(): void;
}

/** Creates the bucket when it does not exist yet: run once at start. */
export async function ensureBucket(settings: S3Settings): Promise<void> {
  const store = s3ObjectStore(settings);
  try {
    await store.ensureBucket();
  } finally {
    store.close();
  }
}

export function s3ObjectStore(settings: S3Settings): ObjectStore {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: with the SDK's default, bodies go aws-chunked, which several
    // S3-compatible stores refuse (Swift answers 501), and every answer's checksum would be computed again.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;
  const key = (name: string) => `${settings.prefix ?? ""}${name}`;
  return {
    async read(name) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key(name) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (err) {
        if (err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404)) return null;
        throw err;
      }
    },
    async write(name, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key(name), Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
      );
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(name) }));
    },
    async list(prefix) {
      const found: { name: string; modifiedAt: number }[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: key(prefix), ContinuationToken }));
        for (const object of page.Contents ?? [])
          found.push({ name: object.Key!.slice(key("").length), modifiedAt: object.LastModified?.getTime() ?? 0 });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        if (!(err instanceof S3ServiceException) || err.$metadata.httpStatusCode !== 404) throw err;
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },
    close: () => client.destroy(),
  };
}
