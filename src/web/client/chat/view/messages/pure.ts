import { Component, h, type ComponentType } from "preact";

/**
 * A component that redraws only when one of its props is a different value: preact/compat's
 * memo without the rest of compat. Signals read inside the view still redraw it on their own.
 */
export function pure<P extends object>(View: ComponentType<P>): ComponentType<P> {
  return class Pure extends Component<P> {
    shouldComponentUpdate(next: P) {
      const now = this.props as Record<string, unknown>;
      const then = next as Record<string, unknown>;
      for (const key in then) if (then[key] !== now[key]) return true;
      for (const key in now) if (!(key in then)) return true;
      return false;
    }
    render() {
      return h(View, this.props as P & { children?: never });
    }
  };
}
