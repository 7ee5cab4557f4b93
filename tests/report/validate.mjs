// Validates report JSON files against docs/report-schema.json (draft 2020-12)
// with ajv in strict mode. Usage: node validate.mjs SCHEMA FILE...
// Prints one line per invalid file and exits 1 when any is invalid.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
let bad = 0;
for (const f of files) {
  let data;
  try {
    data = JSON.parse(readFileSync(f, "utf8"));
  } catch (e) {
    console.log(`${f}: not JSON: ${e.message}`);
    bad++;
    continue;
  }
  if (!validate(data)) {
    console.log(`${f}: ${ajv.errorsText(validate.errors, { separator: "; " })}`);
    bad++;
  }
}
process.exit(bad ? 1 : 0);
