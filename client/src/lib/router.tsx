/**
 * A tiny history router: the current location as React state, `navigate()` for code and
 * `<Link>` for markup (a real <a href>, so middle-click, copy link and keyboard all work).
 */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const NAVIGATE_EVENT = 'nerts:navigate';

/** Pushes a new URL (path plus optional query) and tells the router to re-render. */
export function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** The current pathname and query, updated on navigate() and on back/forward. */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const [href, setHref] = useState(() => window.location.href);
  useEffect(() => {
    const update = (): void => setHref(window.location.href);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE_EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  const url = new URL(href);
  return { pathname: url.pathname, search: url.searchParams };
}

/** An in-app link: plain clicks navigate without a reload; modified clicks behave as usual. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { onClick, ...rest } = props;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (props.target && props.target !== '_self') return;
    event.preventDefault();
    navigate(props.href);
  };
  return <a {...rest} onClick={handleClick} />;
}
