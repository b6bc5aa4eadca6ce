import "./state/events";
