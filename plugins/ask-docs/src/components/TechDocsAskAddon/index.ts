export { TechDocsAskAddon } from './TechDocsAskAddon';
