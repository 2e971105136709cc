// The checks e2e.catalogue makes of a C64's tools/list, for the tools a
// C64 does not list (tools/list shows what the live sessions can run):
// valid names, every input property described, an object input schema,
// openWorldHint false. Returns a list of problems (empty when none).
import { TOOL_NAME_RE } from './env.mjs';

export function schemaProblems(tools) {
  const problems = [];
  const walk = (tool, path, schema) => {
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (typeof prop.description !== 'string' || !prop.description) problems.push(`${tool}.${path}${name} has no description`);
      if (prop.properties) walk(tool, `${path}${name}.`, prop);
      if (prop.items?.properties) walk(tool, `${path}${name}[].`, prop.items);
    }
  };
  for (const t of tools) {
    if (!TOOL_NAME_RE.test(t.name)) problems.push(`${t.name}: not a valid tool name`);
    if (t.inputSchema?.type !== 'object') problems.push(`${t.name}: inputSchema is not an object schema`);
    if (t.annotations?.openWorldHint !== false) problems.push(`${t.name}: openWorldHint is not false`);
    walk(t.name, '', t.inputSchema ?? {});
  }
  return problems;
}
