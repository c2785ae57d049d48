// The API seam's interface is model vocabulary (model/api-client.ts: the kind table names its
// calls); api/ implements it in client.ts.
export type { ApiClient } from '../model/api-client.js';
