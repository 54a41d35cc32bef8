import { installLocalCommitBarrier } from '../../infra/local/commit-barrier';

// The handlers and store clients of a test process talk to DynamoDB Local, as the local runtime's
// do: they get the same commit barrier, installed the same way (before any client exists).
installLocalCommitBarrier();
