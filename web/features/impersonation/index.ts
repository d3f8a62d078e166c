// The impersonation feature's public face: the header's user switcher and the banner above every page.
export { ImpersonationBanner } from "./components/impersonation-banner.tsx";
export { UserSwitcher } from "./components/user-switcher.tsx";
