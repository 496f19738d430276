import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/console-app';
import './app/console.css';

createRoot(document.getElementById('root')!).render(<ConsoleApp />);
