// The Activity's sign-in (src/activity.ts) with the Embedded App SDK's own mock in place of the
// Discord client, against a real bot server: tests/test_web_browser.py starts the bot on the
// Discord stand-in, has the stand-in hand out an OAuth2 code for a user (as Discord's authorize
// does), and runs this with TAFL_TEST_* set; the answer is written to TAFL_TEST_OUT.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";
import { DiscordSDKMock } from "@discord/embedded-app-sdk";
import { signIn } from "../src/activity";

const env = process.env;

test("the Activity authorises, exchanges the code on the bot's server, then authenticates", { skip: !env.TAFL_TEST_SERVER }, async () => {
  const clientId = env.TAFL_TEST_CLIENT_ID ?? "";
  const sdk = new DiscordSDKMock(clientId, env.TAFL_TEST_GUILD_ID ?? null, env.TAFL_TEST_CHANNEL_ID ?? null, null);
  const calls: [string, Record<string, unknown>][] = [];
  sdk._updateCommandMocks({
    authorize: async (args) => {
      calls.push(["authorize", args as unknown as Record<string, unknown>]);
      return { code: env.TAFL_TEST_CODE ?? "" };
    },
    authenticate: async (args) => {
      calls.push(["authenticate", args as unknown as Record<string, unknown>]);
      return {
        access_token: String(args.access_token),
        user: { username: "mock", discriminator: "0", id: "1", avatar: null, public_flags: 0 },
        scopes: ["identify"],
        expires: new Date(Date.now() + 3600_000).toISOString(),
        application: { id: clientId, description: "", name: "tafl" },
      };
    },
  });
  const signed = await signIn({ clientId, root: new URL(env.TAFL_TEST_SERVER ?? ""), sdk });
  assert.deepEqual(calls.map(([name]) => name), ["authorize", "authenticate"]);
  const [, asked] = calls[0];
  assert.equal(asked.client_id, clientId);
  assert.equal(asked.response_type, "code");
  assert.deepEqual(asked.scope, ["identify"]);
  // The access token the server got for the code is the one the SDK is told.
  assert.ok(typeof calls[1][1].access_token === "string" && calls[1][1].access_token.length > 10);
  writeFileSync(env.TAFL_TEST_OUT ?? "/dev/null", JSON.stringify(signed));
});
