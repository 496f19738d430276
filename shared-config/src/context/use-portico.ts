import { useContext } from 'react';
import { PorticoContext, type PorticoContextValue } from './portico-context';

export function usePortico(): PorticoContextValue {
  const value = useContext(PorticoContext);
  if (!value) {
    throw new Error(
      'Portico context is missing: render inside <PorticoProvider>. In a remote this means @portico/shared-config was not shared as a singleton with the host.',
    );
  }
  return value;
}
