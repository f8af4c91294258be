// Backstage UI's global styles (tokens, reset, layout); the app layout relies on them.
import '@backstage/ui/css/styles.css';
import ReactDOM from 'react-dom/client';
import { app } from './App';

ReactDOM.createRoot(document.getElementById('root')!).render(app.createRoot());
