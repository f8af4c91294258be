import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ResponseError,
  serializeError,
} from '@backstage/errors';
import OpenAI from 'openai';
import {
  clientErrorStatus,
  fromBodyParserError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from './errors';

describe('clientErrorStatus', () => {
  it('passes Backstage’s error classes and this plugin’s 413 and 415', () => {
    expect(clientErrorStatus(new InputError('bad'))).toBe(400);
    expect(clientErrorStatus(new AuthenticationError('who?'))).toBe(401);
    expect(clientErrorStatus(new NotAllowedError('no'))).toBe(403);
    expect(clientErrorStatus(new NotFoundError('gone'))).toBe(404);
    expect(clientErrorStatus(new ConflictError('busy'))).toBe(409);
    expect(clientErrorStatus(new PayloadTooLargeError('big'))).toBe(413);
    expect(clientErrorStatus(new UnsupportedMediaTypeError('xml'))).toBe(415);
  });

  it('treats an upstream error that carries a 4xx status as internal', async () => {
    // A bad API key: passed on as a 401, the frontend would think the session expired.
    const sdk = new OpenAI.AuthenticationError(
      401,
      { message: 'Incorrect API key provided: sk-abc' },
      'Incorrect API key provided: sk-abc',
      new Headers(),
    );
    expect(sdk.status).toBe(401);
    expect(clientErrorStatus(sdk)).toBeUndefined();
    const named = Object.assign(new Error('upstream'), {
      name: 'AuthenticationError',
      status: 401,
    });
    expect(clientErrorStatus(named)).toBeUndefined();
    const catalog = await ResponseError.fromResponse({
      status: 404,
      statusText: 'Not Found',
      headers: new Headers(),
      text: async () => 'no such entity',
      url: 'http://catalog/entities',
    } as unknown as Response);
    expect(clientErrorStatus(catalog)).toBeUndefined();
    const plain = Object.assign(new Error('x'), { statusCode: 404 });
    expect(clientErrorStatus(plain)).toBeUndefined();
  });

  it('leaves raw body-parser errors to the mapping (they echo the body)', () => {
    const raw = Object.assign(new SyntaxError('Unexpected token'), {
      status: 400,
      statusCode: 400,
      expose: true,
      body: '{"question": "secret',
      type: 'entity.parse.failed',
    });
    expect(clientErrorStatus(raw)).toBeUndefined();
    const mapped = fromBodyParserError(raw, {
      bodyLimitKb: 64,
      maxQuestionChars: 2000,
    });
    expect(mapped).toBeInstanceOf(InputError);
    expect(clientErrorStatus(mapped)).toBe(400);
    expect(JSON.stringify(serializeError(mapped!))).not.toContain('secret');
  });
});
