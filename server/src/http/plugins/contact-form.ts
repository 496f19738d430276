import type { IncomingMessage } from 'node:http';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { CONTACT_FORM_PATH, SENT_PARAM, sentLocation } from '@portico/contract/contact-form';
import { CONTACT_BODY_LIMIT } from '@portico/contract/contact-wire';
import { languageFromSearch, pagePath, searchWithLanguage, type Language } from '@portico/contract/languages';
import { emptyFields, readContactForm, receiveForm, type ContactEndpoint, type ContactForm } from '@portico/messages';
import { BODY_TIME_MS, HttpRefusal, textBodyParser } from '@portico/platform/http';
import { withFormAnswer, type FormAnswer } from '../../contact-form-page';
import { sendPlain } from '../../plain-answer';
import type { ServerRendering } from '../../ssr/server-rendering';
import { requestTarget } from '../../static-files';
import { otherMethods, refuseMethod } from './app-files';

export interface ContactFormOptions {
  /** The contact messages' endpoint (the JSON API's), or undefined while the store opens. */
  endpoint: () => ContactEndpoint | undefined;
  /** The page the answer is made from; none (PORTICO_SSR=0): no form was rendered to post. */
  rendering: ServerRendering | undefined;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Never kept anywhere: the answer holds what the visitor typed, or follows from it. */
const NOT_KEPT = { 'Cache-Control': 'no-store' };

/** The Origin a browser sends, when it is a plain origin (not `null`, not garbage). */
function originHeader(req: IncomingMessage): string | undefined {
  const value = req.headers.origin;
  try {
    return value && new URL(value).origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

const isForm = (contentType: string | undefined) => contentType?.split(';')[0]!.trim().toLowerCase() === FORM_TYPE;

/**
 * The Contact form without JavaScript (issue 49): `POST /contact`, form-encoded,
 * answered with the page itself (the fields kept, each error marked in the
 * visitor's language, never cached) or, once stored, a 303 to `GET /contact?sent=1`,
 * which shows the thank-you (a reload sends nothing). The checks are the JSON
 * API's, in its order: the store open, the method, the page's own Origin,
 * the type, 64 KB within 5 s; then the message goes the one way every
 * message goes (receiveMessage: validation, rate limit, store).
 */
export const contactForm: FastifyPluginCallback<ContactFormOptions> = (app, { endpoint, rendering }, done) => {
  /** The page in `language` with the form's answer, or without the page (not rendered here) the sentence alone. */
  const answerPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    language: Language,
    answer: FormAnswer,
    extra: Record<string, string> = {},
  ) => {
    const page = await rendering?.pageHtml(request.raw, searchWithLanguage('', language));
    const html = page && withFormAnswer(page, answer);
    if (!page || html === undefined) {
      if (status < 400)
        return reply
          .code(303)
          .headers({ ...NOT_KEPT, Location: `${pagePath(language)}#contact` })
          .send();
      return sendPlain(reply, status, 'The form could not be answered here; please try again with JavaScript on.', extra);
    }
    // The page's own headers (its CSP allows its inline script), and never kept: it may hold what was typed.
    const headers = Object.fromEntries(Object.entries(page.headers).filter(([name]) => !/^(etag|last-modified|cache-control)$/i.test(name)));
    return reply
      .code(status)
      .headers({ ...headers, ...extra, ...NOT_KEPT, 'Content-Type': 'text/html; charset=utf-8' })
      .send(html);
  };

  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof HttpRefusal)) throw error;
    if (!('Connection' in error.headers)) reply.removeHeader('connection');
    return sendPlain(reply, error.status, error.message, error.headers);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) =>
    textBodyParser({ limit: CONTACT_BODY_LIMIT, timeMs: endpoint()?.bodyTimeMs ?? BODY_TIME_MS })(request, payload),
  );

  const precheck = (request: FastifyRequest, reply: FastifyReply, next: () => void) => {
    const contact = endpoint();
    if (!contact) return sendPlain(reply, 503, 'Messages cannot be received just now; please try again in a moment.', { 'Retry-After': '5' });
    const own = contact.requestOrigin(request.raw).origin;
    // The JSON API's rule: a browser sends Origin with every form POST, so only a page of this site's can send this one.
    if (!own || originHeader(request.raw) !== own) return sendPlain(reply, 403, "Messages are accepted from this site's own pages only.");
    if (!isForm(request.headers['content-type'])) return sendPlain(reply, 415, `The form must be sent as ${FORM_TYPE}.`);
    next();
  };

  const received = async (request: FastifyRequest, reply: FastifyReply, contact: ContactEndpoint, form: ContactForm) => {
    const { language, values } = form;
    const empty = emptyFields(form);
    if (empty.length > 0)
      return answerPage(request, reply, 422, language, { values, marked: empty.map((field) => ({ field, reason: 'required' })), notice: 'incomplete' });
    const outcome = await receiveForm(contact, form, request);
    switch (outcome.kind) {
      case 'stored':
      case 'repeated':
        // Post-redirect-get: the thank-you is a GET, so a reload or Back sends nothing again.
        return reply
          .code(303)
          .headers({ ...NOT_KEPT, Location: sentLocation(language) })
          .send();
      case 'invalid': {
        const field = outcome.field;
        if (field === 'name' || field === 'telephone' || field === 'message') {
          return answerPage(request, reply, 422, language, { values, marked: [{ field, reason: 'invalid' }] });
        }
        return answerPage(request, reply, 400, language, { values, notice: 'refused' });
      }
      case 'rate-limited':
        return answerPage(request, reply, 429, language, { values, notice: 'rateLimited' }, { 'Retry-After': String(outcome.retryAfterSeconds) });
      case 'unavailable':
        return answerPage(request, reply, 503, language, { values, notice: 'busy' });
      case 'conflict':
        return answerPage(request, reply, 409, language, { values, notice: 'refused' });
    }
  };

  app.route({
    method: 'POST',
    url: CONTACT_FORM_PATH,
    onRequest: (request, reply, next) => void precheck(request, reply, next),
    handler: async (request, reply) => {
      const read = readContactForm(request.body as string);
      if (!read.ok) return sendPlain(reply, 400, `The form could not be read: ${read.error}.`);
      return received(request, reply, endpoint()!, read.form);
    },
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: CONTACT_FORM_PATH,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const search = requestTarget(request.raw.url)?.search ?? '';
      const language = languageFromSearch(search);
      const sent = new URLSearchParams(search).get(SENT_PARAM) === '1';
      return answerPage(request, reply, 200, language, sent ? { notice: 'sent' } : {});
    },
  });
  app.route({
    method: otherMethods(app, ['GET', 'HEAD', 'POST']),
    url: CONTACT_FORM_PATH,
    onRequest: (_request, reply) => refuseMethod(reply, 'GET, HEAD, POST'),
    handler: () => undefined,
  });
  done();
};
