import type { ContactText } from './contact-text';

/** The contact section's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: ContactText = {
  heading: 'Contact us',
  intro: 'Leave us your name, your phone number and your question.',
  privacy: 'We keep your name, telephone number, message, language and the time you sent it, only to answer you, and delete them after {period}.',
  retentionPeriod: { one: '{days} day', other: '{days} days' },
  privacyDelete: 'To have them deleted sooner, write to {email}.',
  privacyDeleteOfficer: 'To have them deleted sooner, write to our grievance redressal officer, {officer}, at {email}.',
  privacyDeleteHere: 'To have them deleted sooner, ask us with this form.',
  thanks: 'Thank you, {name}. Your message has reached us, and we will get back to you.',
  thanksWithoutName: 'Thank you. Your message has reached us, and we will get back to you.',
  name: 'Name',
  telephone: 'Telephone',
  message: 'Message',
  send: 'Send message',
  required: 'Please fill in this field.',
  incomplete: 'Please provide complete information!',
  success: 'Submit successfully！',
  trap: 'Leave this field empty',
  notSent: 'Your message was not sent.',
  retry: 'Try again',
  delivery: {
    offline: 'We could not send your message: our server could not be reached. Check your connection and try again. Your text is kept.',
    timeout: 'We could not send your message: our server did not answer within a minute. Your text is kept, and trying again will not send it twice.',
    busy: 'We could not send your message: the server is busy. Your text is kept; please try again in a moment.',
    rateLimited:
      'We could not send your message: several messages came from your connection in a short time. Please wait {wait}, then try again. Your text is kept.',
    waitAWhile: 'a few minutes',
    invalidField:
      'We could not send your message: the server did not accept the {field} field. Please check it; it takes at most {limit} characters. Your text is kept.',
    invalid: 'We could not send your message: the server did not accept it. Your text is kept; please try again later.',
    tooLong: 'We could not send your message: it is too long. Please shorten it and try again. Your text is kept.',
    conflict: 'An earlier version of this message has already reached us. To send this version as well, press Try again. Your text is kept.',
    refused: 'We could not send your message: the server refused it. Your text is kept; please try again later.',
    unavailable: 'Sending messages is not available on this site, so your message was not sent. Your text is kept.',
  },
};
