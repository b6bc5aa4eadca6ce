/** Unix time in whole seconds: what the API's timestamps and the tables' date columns hold. */
export const now = () => Math.floor(Date.now() / 1000);
