import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { CONTACT_FORM_PATH, SENT_PARAM, sentLocation } from '@portico/contract/contact-form';
import { CONTACT_BODY_LIMIT } from '@portico/contract/contact-wire';
import { languageFromSearch, pagePath, searchWithLanguage, type Language } from '@portico/contract/languages';
import { emptyFields, readContactForm, receiveForm, type ContactEndpoint, type ContactForm } from '@portico/messages';
import { BODY_TIME_MS, postGate, sendPlain } from '@portico/platform/http';
import { withFormAnswer, type FormAnswer } from '../../contact-form-page';
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

const isForm = (contentType: string | undefined) => contentType?.split(';')[0]!.trim().toLowerCase() === FORM_TYPE;

/**
 * The Contact form without JavaScript (issue 49): `POST /contact`, form-encoded,
 * answered with the page itself (the fields kept, each error marked in the
 * visitor's language, never cached) or, once stored, a 303 to `GET /contact?sent=1`,
 * which shows the thank-you (a reload sends nothing). The checks are the
 * beacon's (postGate: the page's own Origin, the type, the store open), then
 * 64 KB within 5 s (the root plugin's parser); then the message goes the one
 * way every message goes (receiveMessage: validation, rate limit, store).
 * Its refusals are short texts: a browser shows them as the page.
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
    const page = await rendering?.pageHtml(request, searchWithLanguage('', language));
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

  const gate = postGate({
    accepts: isForm,
    open: () => endpoint() !== undefined,
    words: {
      origin: "Messages are accepted from this site's own pages only.",
      type: `The form must be sent as ${FORM_TYPE}.`,
      closed: 'Messages cannot be received just now; please try again in a moment.',
    },
  });

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
    config: {
      refusals: 'plain',
      body: { as: 'text', limits: () => ({ limit: CONTACT_BODY_LIMIT, timeMs: endpoint()?.bodyTimeMs ?? BODY_TIME_MS }) },
    },
    onRequest: gate,
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
