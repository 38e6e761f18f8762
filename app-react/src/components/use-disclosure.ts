import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A disclosure button and the panel it shows (the WAI-ARIA disclosure pattern, as for site
 * navigation menus): the button says whether the panel is open (`aria-expanded`) and which one
 * it controls. The panel closes on Escape (focus goes back to the button if it was inside), on a
 * click or tap outside, when focus moves out of the `container`, and when the page changes, so
 * following one of its links closes it.
 */
export function useDisclosure<Container extends HTMLElement>() {
  const panelId = useId();
  const { key } = useLocation();
  const [open, setOpen] = useState(false);
  const [shownAt, setShownAt] = useState(key);
  const container = useRef<Container>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Another page: closed (React's way of resetting state when an input changes, during render).
  if (shownAt !== key) {
    setShownAt(key);
    setOpen(false);
  }

  const close = useCallback(() => setOpen(false), []);
  const toggle = () => setOpen(!open);

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) => target instanceof Node && container.current?.contains(target) === true;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (inside(document.activeElement)) button.current?.focus();
      close();
    };
    const onPointer = (event: PointerEvent) => {
      if (!inside(event.target)) close();
    };
    const onFocus = (event: FocusEvent) => {
      if (!inside(event.target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open, close]);

  return {
    open,
    close,
    container,
    buttonProps: { ref: button, type: 'button', 'aria-expanded': open, 'aria-controls': panelId, onClick: toggle } as const,
    panelId,
  };
}
