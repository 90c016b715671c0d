import { mount } from 'svelte';
import App from './App.svelte';
import './theme.css';

const target = document.getElementById('app');
if (!target) throw new Error('Peon: #app is missing from the webview HTML');
mount(App, { target });
