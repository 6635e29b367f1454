// JSON Schema of a family spec (specs/*.yaml). Structural checks only; cross-field checks
// (names used by rules, library values, expressions) live in spec.ts.

const name = { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } as const;
const value = { anyOf: [{ type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' }, { type: 'integer' }] } as const;
const arg = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$' },
    kind: { enum: ['real[]', 'f32[]', 'f64[]', 'i32[]', 'u32[]'] },
    per: { type: 'string' },
    width: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }] },
    doc: { type: 'string' },
    when: { type: 'string' },
  },
} as const;

export const specSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['family', 'version', 'axes', 'library'],
  properties: {
    family: name,
    version: { type: 'integer', minimum: 1 },
    description: { type: 'string' },
    seed: { type: 'string' },
    inputs: { type: 'array', items: arg },
    outputs: { type: 'array', items: arg },
    axes: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-z][A-Za-z0-9]*$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'values'],
        properties: {
          kind: { enum: ['semantic', 'tuning'] },
          values: { type: 'array', minItems: 1, items: value },
          when: { type: 'string' },
          doc: { type: 'string' },
        },
      },
    },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'require'],
        properties: { name, when: { type: 'string' }, require: { type: 'string' }, why: { type: 'string' } },
      },
    },
    potentials: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['energy', 'force'],
        properties: {
          doc: { type: 'string' },
          params: { type: 'object', additionalProperties: { type: 'number' } },
          energy: { type: 'string' },
          force: { type: 'string' },
        },
      },
    },
    library: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', additionalProperties: { type: 'array', minItems: 1, items: value } },
    },
  },
} as const;
