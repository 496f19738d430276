import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useHashRoute } from './use-hash-route';

export interface LandingNotice {
  /**
   * Goes to `route` and says `text` there: for an action whose own screen
   * goes with it (a retired section's page), so its outcome is not said on a
   * screen that is gone.
   */
  leaveFor(route: string, text: string): void;
}

const LandingNoticeContext = createContext<LandingNotice | undefined>(undefined);

export interface LandingNoticeProviderProps {
  children: ReactNode;
}

/**
 * Holds the notice and shows it in a status region that every screen has
 * (mounted once, above the screen, so a screen reader hears the text arrive
 * rather than a region appear), on the route it was left for alone: the
 * next screen does not say it again.
 */
export function LandingNoticeProvider({ children }: LandingNoticeProviderProps) {
  const route = useHashRoute();
  const [notice, setNotice] = useState<{ route: string; text: string }>();
  const [seenRoute, setSeenRoute] = useState(route);
  // Only a move of the route clears it (set just before the move, it must outlive the render that still shows the old screen): React's way of adjusting state to a changed value, during the render.
  if (seenRoute !== route) {
    setSeenRoute(route);
    if (notice && notice.route !== route) setNotice(undefined);
  }
  const leaveFor = useCallback((to: string, text: string) => {
    setNotice({ route: to, text });
    window.location.hash = `#${to}`;
  }, []);
  const value = useMemo(() => ({ leaveFor }), [leaveFor]);
  const shown = notice?.route === route ? notice.text : undefined;
  return (
    <LandingNoticeContext.Provider value={value}>
      <div role="status" className="landing-notice">
        {shown && <p className="outcome ok">{shown}</p>}
      </div>
      {children}
    </LandingNoticeContext.Provider>
  );
}

export function useLandingNotice(): LandingNotice {
  const notice = useContext(LandingNoticeContext);
  if (!notice) throw new Error('useLandingNotice: outside a LandingNoticeProvider');
  return notice;
}
