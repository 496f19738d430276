// The async boundary: shared modules (React, shared-config) are negotiated by
// Module Federation before bootstrap's static imports run.
void import('./bootstrap');
