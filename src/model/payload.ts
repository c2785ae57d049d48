// Conversions between the model and the API's JSON, in both directions. Pure: no I/O.
// Request bodies follow the spec's Create/Update sections (every step field a string);
// responses are reduced to the Live* types with secrets removed at this boundary, so
// nothing downstream of the client can leak an app token or webhook secret.
// Each kind's bodies and answer are in its module (model/kinds/<kind>.ts), re-exported here;
// this file adds what belongs to no kind (world operators).

import type { WorldOperator } from './types.js';
import { str, type ApiResource } from './kinds/values.js';

export { actionBody, fromApiAction, type ActionBody } from './kinds/action.js';
export { appBody, appPatchBody, appSecrets, fromApiApp, type AppBody } from './kinds/app.js';
export { fromApiParser, parserBody, parserPatchBody, type ParserBody } from './kinds/parser.js';
export { stepValue, type StepAttributes } from './kinds/steps.js';

export function fromApiOperator(json: ApiResource): WorldOperator {
  const a = json.attributes;
  return { id: Number(json.id), name: str(a.name), country_alpha2: str(a.country_alpha2), hnis: str(a.hnis) };
}
