// Notice delivery, below every package that sends one (contact messages,
// operators' alerts): the signed webhook, the mail server's rules and the
// retry schedule. What a notice says, and its outbox, are its sender's.
export { backoffSeconds } from './retry';
export { mailTransport, noticeMailer, oneLine, smtpOptions, type NoticeMailer, type SmtpSettings } from './mail-transport';
export { postSigned, SIGNATURE_HEADER, signature, type SignedPost } from './signed-webhook';
