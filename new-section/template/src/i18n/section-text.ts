/** Every text of this section, per language; both packs are typed by it. */
export interface SectionText {
  heading: string;
  intro: string;
  /** Interactive sections: the field's label and the answer, `{name}` filled with what is typed. */
  nameLabel: string;
  greeting: string;
}
