// The parts of the API's /openapi.json (OpenAPI 3.1) that tests read. Type aliases, not interfaces:
// ajv takes a schema as an object with any keys.

/** A JSON Schema, with the keywords tests look at. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  enum?: unknown[];
  default?: unknown;
};

export type Parameter = { name: string; in: "path" | "query"; required: boolean; schema: JsonSchema };

export type Operation = {
  summary?: string;
  operationId?: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
};

export type OpenApiDoc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
