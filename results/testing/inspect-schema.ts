import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';

/** Inspect's published schema (`inspect-openapi.json`), its EvalLog and EvalSample types, for tests of our logs. */
export function inspectSchema(openapi: string): { log: ValidateFunction; sample: ValidateFunction } {
  const api = JSON.parse(readFileSync(openapi, 'utf8')) as { components: object };
  const ajv = new Ajv2020({ strict: false, logger: false });
  // OpenAPI's discriminator only names which anyOf branch applies; the branches themselves are checked.
  ajv.addKeyword('discriminator');
  for (const format of ['date-time', 'duration']) ajv.addFormat(format, true);
  ajv.addSchema({ $id: 'inspect', components: api.components });
  return { log: ajv.getSchema('inspect#/components/schemas/EvalLog')!, sample: ajv.getSchema('inspect#/components/schemas/EvalSample')! };
}
