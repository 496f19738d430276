import type { Market } from '@portico/contract/languages';

/**
 * Each market's regulator's own complaint channel: public addresses of the
 * regulators themselves, not the lender's (those come from config.json).
 * The words around them are the market's language pack (`regulator`).
 */
export const REGULATOR_CHANNEL: Record<Market, { url: string; label: string; phone?: string }> = {
  // The Reserve Bank of India's Complaint Management System (RB-IOS, Digital Lending Directions).
  IN: { url: 'https://cms.rbi.org.in', label: 'cms.rbi.org.in' },
  // Otoritas Jasa Keuangan's consumer service, Kontak OJK 157 (POJK 22/2023).
  ID: { url: 'https://kontak157.ojk.go.id', label: 'kontak157.ojk.go.id', phone: '157' },
};
