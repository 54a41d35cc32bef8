import { captureMetrics } from '../../shared/platform/observability/metrics';

// The EMF documents of the handlers this process runs are kept here instead of printed: hundreds of
// JSON lines in the run's output otherwise. A test that reads them captures its own
// (`captureMetrics`), which this leaves in place.
captureMetrics();
