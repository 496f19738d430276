export { isChinese, isDecimal, isEmail, isInteger, isPhone, isUrl } from './validators';
