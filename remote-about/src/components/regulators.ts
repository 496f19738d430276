// Where each market's regulator takes a borrower's complaint. Public addresses
// of the regulators themselves, the same in every language.
export const RBI_COMPLAINTS = { url: 'https://cms.rbi.org.in', label: 'cms.rbi.org.in' } as const;
export const OJK_CONTACT = { url: 'https://kontak157.ojk.go.id', label: 'kontak157.ojk.go.id', phone: '157' } as const;
