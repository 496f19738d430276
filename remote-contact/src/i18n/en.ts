import type { ContactText } from './contact-text';

/** The contact section's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: ContactText = {
  heading: 'Contact us',
  intro: 'Leave us your name, your phone number and your question.',
  privacy: 'What you type here stays in your browser: this form does not send it anywhere.',
  thanks: 'Thank you, {name}. Your message is noted on this page; it has not been sent anywhere.',
  name: 'Name',
  telephone: 'Telephone',
  message: 'Message',
  send: 'Send message',
  required: 'Please fill in this field.',
  incomplete: 'Please provide complete information!',
  success: 'Submit successfully！',
};
