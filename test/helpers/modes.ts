// The two servers menuctl must work against (issue 9): the reference server with its
// extensions, and the API exactly as specified (no apps index, no list meta, PATCH action
// without a body), there also paged by 3 so every list is read through links.next.
import type { ServerOptions } from '../../src/server/index.js';

export interface ServerMode {
  name: string;
  options: Partial<ServerOptions>;
  specOnly: boolean;
}

export const SERVER_MODES: readonly ServerMode[] = [
  { name: 'full server', options: {}, specOnly: false },
  { name: 'spec-only server, lists paged by 3', options: { specOnly: true, pageSize: 3 }, specOnly: true },
];
