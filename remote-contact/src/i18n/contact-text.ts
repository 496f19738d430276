/** Every text of the contact section, per language; both packs are typed by it. */
export interface ContactText {
  heading: string;
  intro: string;
  privacy: string;
  thanks: string;
  name: string;
  telephone: string;
  message: string;
  send: string;
  required: string;
  incomplete: string;
  success: string;
}
