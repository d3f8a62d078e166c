// The account feature's public face: the header's user menu (the pages are the router's).
export { AccountMenu } from "./components/account-menu.tsx";
