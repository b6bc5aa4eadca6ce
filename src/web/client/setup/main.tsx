import { render } from "preact";

/** The first-run wizard (to be built). */
function Wizard() {
  return <p>Setup</p>;
}

render(<Wizard />, document.getElementById("app")!);
