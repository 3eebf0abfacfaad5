// Inside Discord as an Activity: the Embedded App SDK's handshake, the user's consent
// (an OAuth2 code), the code exchanged on the bot's server for an access token and the link
// token of the user's game in that channel, then the SDK told who the user is.
// Built apart from board.js (static/activity.js) and loaded only inside Discord.

import { DiscordSDK, type IDiscordSDK } from "@discord/embedded-app-sdk";

export interface Signed {
  token: string | null;
  message: string | null;
}

export interface SignInOptions {
  clientId: string;
  /** The bot's server, where /api/activity/token answers. */
  root: URL;
  /** The SDK to use (the real one unless given: tests pass the SDK's mock). */
  sdk?: IDiscordSDK;
  fetch?: typeof fetch;
}

export type SignIn = (options: SignInOptions) => Promise<Signed>;

interface Exchanged {
  access_token?: string;
  token?: string | null;
  message?: string | null;
  error?: string;
}

export const signIn: SignIn = async (options) => {
  const sdk = options.sdk ?? new DiscordSDK(options.clientId);
  const request = options.fetch ?? fetch;
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: options.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await request(new URL("api/activity/token", options.root).toString(), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, channel_id: sdk.channelId, guild_id: sdk.guildId }),
  });
  const body = (await answer.json()) as Exchanged;
  if (!answer.ok || !body.access_token) {
    throw new Error(body.error ?? body.message ?? "");
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  // Without a game in the channel, the server says so in the user's language.
  return { token: body.token ?? null, message: body.message ?? body.error ?? null };
};
