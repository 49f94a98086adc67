// What a configured local server (`arbor.providers.local.baseUrl`) says about itself: the id of the
// model it serves, asked once per URL by the settings module (arbor-settings.ts) so the model list
// shows the real name. Loopback or the user's own server only; a failure just leaves the default id.
export async function firstModelId(baseUrl: string): Promise<string | undefined> {
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  try {
    const response = await fetch(`${root}/v1/models`, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const id = body.data?.[0]?.id;
    return typeof id === 'string' && id ? id : undefined;
  } catch {
    return undefined;
  }
}
