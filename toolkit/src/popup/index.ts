export { Popup, type PopupProps } from './popup';
export { usePopup, type PopupOptions, type PopupState } from './use-popup';
