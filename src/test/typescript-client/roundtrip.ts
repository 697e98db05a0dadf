// Run by io.verso.api.rest.TypeScriptClientTests: node dist/roundtrip.js <base URL> <API key> <table> <commit>...
// For each commit: its time read through the generated client, passed back as asOfTime to a read of the
// table, must name that same commit. Prints one JSON line per commit; exits 1 when any differs.
import { CommitsApi, Configuration, RowsApi } from './client/index.js';

// Node's own, declared here rather than pulling in @types/node for two members.
declare const process: { argv: string[]; exit(code: number): never };

const [baseUrl, apiKey, table, ...commitArgs] = process.argv.slice(2);
const configuration = new Configuration({ basePath: baseUrl, headers: { 'X-API-Key': apiKey } });
const commits = new CommitsApi(configuration);
const rows = new RowsApi(configuration);

let failed = false;
for (const commit of commitArgs) {
  const committedAt: string = (await commits.getCommit({ commit })).committedAt;
  const page = await rows.listRows({ table, asOfTime: committedAt });
  const same = page.readCommit === commit;
  failed ||= !same;
  console.log(JSON.stringify({ commit, committedAt, readCommit: page.readCommit, rows: page.rows.length, same }));
}
process.exit(failed ? 1 : 0);
