import { createPlainAppConfig } from '@portico/webpack';

export default createPlainAppConfig({ name: 'portico_console', dir: __dirname });
