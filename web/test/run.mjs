// `npm test`: bundles each test/*.test.ts (esbuild, for Node) into a temporary folder and runs
// them with Node's own test runner.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "tafl-board-tests-"));
try {
  const tests = readdirSync(here).filter((name) => name.endsWith(".test.ts"));
  await esbuild.build({
    entryPoints: tests.map((name) => join(here, name)),
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  const run = spawnSync(process.execPath, ["--test", ...tests.map((name) => join(out, name.replace(/\.ts$/, ".mjs")))], {
    stdio: "inherit",
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
