// One error body for every failure (docs/api.md, "Errors"): the spec shows none, so the server
// uses a JSON:API-style list so a 422 can name every invalid field at once.

export interface ErrorObject {
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string; header?: string };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A failure that becomes an error response; `errors` holds one entry per problem. */
export class HttpError extends Error {
  readonly errors: ErrorObject[];
  constructor(
    readonly status: number,
    errors: Array<Omit<ErrorObject, 'status' | 'title'> & { title?: string }>,
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.detail).join('; '));
    this.errors = errors.map((e) => ({
      status: String(status),
      code: e.code,
      title: e.title ?? TITLES[status] ?? 'Error',
      detail: e.detail,
      ...(e.source ? { source: e.source } : {}),
    }));
  }
}

export function httpError(status: number, code: string, detail: string, source?: ErrorObject['source']): HttpError {
  return new HttpError(status, [{ code, detail, ...(source ? { source } : {}) }]);
}

export const notFound = (what: string): HttpError => httpError(404, 'not_found', `${what} not found`);

/** Collects field problems so one 422 lists all of them. */
export class FieldErrors {
  readonly list: Array<{ code: string; detail: string; source: { pointer: string } }> = [];
  add(pointer: string, code: string, detail: string): void {
    this.list.push({ code, detail, source: { pointer } });
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new HttpError(422, this.list.map((e) => ({ ...e, title: 'Invalid field' })));
  }
}
