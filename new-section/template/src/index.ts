// The async boundary: shared modules are negotiated before bootstrap runs.
void import('./bootstrap');
