// Every response the test client sees is checked against the committed OpenAPI document
// (reliability H2): the status must be one the operation declares, a JSON body must
// validate against the declared schema, and an error's code must be one the document lists
// for that status. The committed document equals the served one (test/http/openapi.test.ts).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Operation = { responses: Record<string, { description?: string; content?: unknown }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

const doc = JSON.parse(
  readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'),
) as Doc;

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(doc, 'openapi');

/** Path templates as patterns, literal paths first so `/x/claim` beats `/x/{id}`. */
const routes = Object.keys(doc.paths)
  .map((template) => ({
    template,
    params: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  .sort((a, b) => a.params - b.params);

const validators = new Map<string, ValidateFunction>();

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function validatorFor(template: string, method: string, status: string): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  let v = validators.get(key);
  if (!v) {
    const ref = `openapi#/${pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema')}`;
    v = ajv.compile({ $ref: ref });
    validators.set(key, v);
  }
  return v;
}

/** Throws when the response breaks the document. */
export function checkContract(
  method: string,
  url: string,
  status: number,
  contentType: string,
  body: unknown,
): void {
  const path = url.split('?')[0] as string;
  const route = routes.find((r) => r.pattern.test(path));
  const op = route ? doc.paths[route.template]?.[method.toLowerCase()] : undefined;
  const where = `${method} ${path} -> ${status}`;
  if (!route || !op) {
    // Unknown routes and methods answer with the envelope only.
    if (status !== 404 && status !== 405) throw new Error(`${where}: no such operation`);
    return;
  }
  const declared = op.responses[String(status)];
  if (!declared) {
    throw new Error(
      `${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')}); body ${JSON.stringify(body)}`,
    );
  }
  if (status >= 400) {
    const code = (body as { error?: { code?: string } })?.error?.code;
    const codes = [...(declared.description ?? '').matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]);
    if (!code || !codes.includes(code)) {
      throw new Error(`${where}: error code ${code} not declared (declared: ${codes.join(', ')})`);
    }
  }
  if (!contentType.includes('application/json') || !declared.content) return;
  const validate = validatorFor(route.template, method.toLowerCase(), String(status));
  if (!validate(body)) {
    throw new Error(
      `${where}: body does not match the document: ${ajv.errorsText(validate.errors)}; body ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
