// Builds the live board into the Python package (bot/discord_bot/web/static): board.js (the
// page), activity.js (the Embedded App SDK, loaded only inside Discord) and board.css.
// Deterministic: the same sources give the same bytes, and each file's first line carries the
// SHA-256 of the sources it was built from (tests/test_web_client.py recomputes both).

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
const out = join(here, "..", "bot", "discord_bot", "web", "static");

/** What the bundle is built from, in a fixed order (as tests/test_web_client.py lists it). */
function sources() {
  const files = ["package.json", "package-lock.json", "build.mjs", "tsconfig.json"];
  const walk = (dir) => {
    for (const entry of readdirSync(join(here, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk("src");
  return files.sort();
}

export function sourceDigest() {
  const digest = createHash("sha256");
  for (const file of sources()) {
    digest.update(file + "\0");
    digest.update(readFileSync(join(here, file)));
    digest.update("\0");
  }
  return digest.digest("hex");
}

const common = {
  absWorkingDir: here,
  bundle: true,
  minify: true,
  write: false,
  target: "es2020",
  charset: "utf8",
  legalComments: "eof",
  logLevel: "warning",
};

const builds = [
  { entryPoints: ["src/main.ts"], format: "iife", outfile: "board.js" },
  { entryPoints: ["src/activity.ts"], format: "esm", outfile: "activity.js" },
  { entryPoints: ["src/board.css"], outfile: "board.css" },
];

const header = `/* tafl board, built from sources sha256:${sourceDigest()} */\n`;
mkdirSync(out, { recursive: true });
for (const build of builds) {
  const result = await esbuild.build({ ...common, ...build, outfile: join(out, build.outfile) });
  for (const file of result.outputFiles) {
    writeFileSync(file.path, header + file.text);
    console.log(`${relative(join(here, ".."), file.path).split(sep).join("/")}: ${file.contents.length + header.length} bytes`);
  }
}
