export { AskDocsPage, AskDocsPageContent } from './AskDocsPage';
