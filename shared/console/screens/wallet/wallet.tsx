import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading, when } from '../../ui/feedback';

type Branding = components['schemas']['WalletBranding'];
type Draft = Pick<Branding, 'backgroundColor' | 'foregroundColor' | 'labelColor' | 'logoPng'>;

export function Wallet() {
  const loaded = useLoad(() => unwrap(api.GET('/api/flash/wallet/branding')), []);
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">Wallet</h1>
      <p>The colours and logo of the members' Apple and Google Wallet cards. Cards show a change from their next update.</p>
      {loaded.state === 'loading' ? <Loading what="the branding" /> : null}
      {loaded.state === 'failed' ? <Failure error={loaded.error} /> : null}
      {loaded.state === 'ready' ? <BrandingForm saved={loaded.data.data} /> : null}
    </section>
  );
}

const COLOURS = [
  ['backgroundColor', 'Background colour'],
  ['foregroundColor', 'Text colour'],
  ['labelColor', 'Label colour'],
] as const;

/** What the form edits and sends: the branding without its timestamp. */
const draftOf = (b: Branding): Draft => ({
  backgroundColor: b.backgroundColor,
  foregroundColor: b.foregroundColor,
  labelColor: b.labelColor,
  logoPng: b.logoPng,
});

function BrandingForm({ saved }: { saved: Branding }) {
  const [draft, setDraft] = useState<Draft>(draftOf(saved));
  const [updatedAt, setUpdatedAt] = useState(saved.updatedAt);
  const [logoError, setLogoError] = useState<string>();
  useEffect(() => setDraft(draftOf(saved)), [saved]);
  const pickLogo = async (file: File | undefined) => {
    setLogoError(undefined);
    if (!file) return;
    if (file.type !== 'image/png') return setLogoError('The logo must be a PNG.');
    const bytes = new Uint8Array(await file.arrayBuffer());
    setDraft({ ...draft, logoPng: btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join('')) });
  };
  const {
    onSubmit: submit,
    busy,
    error,
  } = useSubmit(async () => {
    const saved = (await unwrap(api.PUT('/api/flash/wallet/branding', { body: draft }))).data;
    setDraft(draftOf(saved));
    setUpdatedAt(saved.updatedAt);
  });
  return (
    <div class="branding">
      <form class="card" onSubmit={submit} aria-label="Branding of the cards">
        {COLOURS.map(([field, label]) => (
          <label key={field}>
            {label}
            <input type="color" name={field} value={draft[field]} onInput={(e) => setDraft({ ...draft, [field]: e.currentTarget.value })} />
          </label>
        ))}
        <label>
          Logo (PNG)
          <input type="file" name="logo" accept="image/png" onChange={(e) => pickLogo(e.currentTarget.files?.[0])} />
        </label>
        {logoError ? <p role="alert">{logoError}</p> : null}
        {draft.logoPng ? (
          <button type="button" onClick={() => setDraft({ ...draft, logoPng: null })}>
            Remove the logo
          </button>
        ) : null}
        {error ? <Failure error={error} /> : null}
        <p class="meta">{updatedAt ? `Saved ${when(updatedAt)}` : 'The defaults apply: nothing saved yet.'}</p>
        <button type="submit" disabled={busy}>
          Save branding
        </button>
      </form>
      <PassFront draft={draft} />
    </div>
  );
}

/** The front of a card as it will look, from the colours and logo being edited. */
function PassFront({ draft }: { draft: Draft }) {
  return (
    <figure class="pass-preview">
      <div class="pass" data-testid="pass-front" style={{ background: draft.backgroundColor, color: draft.foregroundColor }}>
        <div class="pass-top">
          {draft.logoPng ? <img src={`data:image/png;base64,${draft.logoPng}`} alt="Logo" /> : <span class="pass-logo-empty">Logo</span>}
          <span>
            <span class="pass-label" style={{ color: draft.labelColor }}>
              POINTS
            </span>
            <strong>1,250</strong>
          </span>
        </div>
        <div>
          <span class="pass-label" style={{ color: draft.labelColor }}>
            MEMBER
          </span>
          <strong>Ada Lovelace</strong>
        </div>
        <div>
          <span class="pass-label" style={{ color: draft.labelColor }}>
            TIER
          </span>
          <strong>Gold</strong>
        </div>
      </div>
      <figcaption class="meta">Preview of the card front</figcaption>
    </figure>
  );
}
