import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading, when } from '../../ui/feedback';
import { OneTimeCodeField } from '../../ui/fields';

type Enrolment = { secret: string; otpauthUri: string };

/**
 * "Two-factor sign-in" on the account page (and the only thing a person may do before enrolling in a
 * workspace that requires it): enrol an authenticator app, confirm it with a code, keep the recovery
 * codes shown this once, or turn it off.
 */
export function TwoFactor({ onEnrolled }: { onEnrolled?: () => void }) {
  const status = useLoad(() => unwrap(api.GET('/api/flash/mfa')), []);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useSubmit(async () => setEnrolment((await unwrap(api.POST('/api/flash/mfa/enrolment'))).data));
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {status.state === 'loading' ? <Loading what="your two-factor sign-in" /> : null}
      {status.state === 'failed' ? <Failure error={status.error} /> : null}
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            status.reload();
            onEnrolled?.();
          }}
        />
      ) : enrolment ? (
        <Confirm
          enrolment={enrolment}
          onConfirmed={(c) => {
            setEnrolment(null);
            setCodes(c);
          }}
        />
      ) : status.state === 'ready' && status.data.data.enabled ? (
        <Disable status={status.data.data} onDisabled={status.reload} />
      ) : status.state === 'ready' ? (
        <>
          <p>
            {status.data.data.required ? 'Your workspace requires it. ' : ''}
            After your password, signing in asks for a code from an authenticator app on your phone.
          </p>
          {start.error ? <Failure error={start.error} /> : null}
          <button type="button" disabled={start.busy} onClick={start.onSubmit}>
            Set up two-factor sign-in
          </button>
        </>
      ) : null}
    </section>
  );
}

function Confirm({ enrolment, onConfirmed }: { enrolment: Enrolment; onConfirmed: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const { onSubmit, busy, error } = useSubmit(async () =>
    onConfirmed((await unwrap(api.POST('/api/flash/mfa/confirm', { body: { code } }))).data.recoveryCodes),
  );
  return (
    <form onSubmit={onSubmit} aria-label="Confirm your authenticator app">
      <p>
        Add this account to your authenticator app: open <a href={enrolment.otpauthUri}>the setup link</a> on your phone, or type the key by hand.
      </p>
      <p>
        Key: <code data-testid="mfa-secret">{enrolment.secret}</code>
      </p>
      <p>
        Setup link: <code data-testid="mfa-uri">{enrolment.otpauthUri}</code>
      </p>
      <OneTimeCodeField label="Code from the app" value={code} onValue={setCode} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Turn on
      </button>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  return (
    <div>
      <p role="status">Two-factor sign-in is on.</p>
      <p>Keep these recovery codes somewhere safe: each signs you in once if your phone is lost. They are shown only now.</p>
      <ol aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}>
        {copied ? 'Copied' : 'Copy the codes'}
      </button>{' '}
      <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
        Download the codes
      </a>{' '}
      <button type="button" onClick={onDone}>
        I have kept them
      </button>
    </div>
  );
}

function Disable({ status, onDisabled }: { status: { enabledAt: string | null; recoveryCodesLeft: number; required: boolean }; onDisabled: () => void }) {
  const [password, setPassword] = useState('');
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/flash/mfa/disable', { body: { password } }));
    setPassword('');
    onDisabled();
  });
  return (
    <>
      <p>
        On since {when(status.enabledAt)}; {status.recoveryCodesLeft} recovery codes left.
        {status.required ? ' Your workspace requires it: turned off, your next sign-in may only set it up again.' : ''}
      </p>
      <form onSubmit={onSubmit} aria-label="Turn two-factor sign-in off">
        <label>
          Your password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {error ? <Failure error={error} /> : null}
        <button type="submit" disabled={busy}>
          Turn off
        </button>
      </form>
    </>
  );
}
