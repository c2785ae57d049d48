// JSON for files people diff and machines read: 2-space indent, a trailing newline, and no
// secret-named key ever written, whatever a caller put in (defence in depth: the API client
// already strips secrets at the boundary, but a plan or report must never carry one).

const SECRET_KEYS = new Set(['token', 'webhook_secret', 'password', 'jwt', 'authorization']);

export function stableJson(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => (SECRET_KEYS.has(key.toLowerCase()) ? undefined : v), 2) + '\n';
}
