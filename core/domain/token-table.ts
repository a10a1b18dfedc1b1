/**
 * The provider token formats (SPEC.md: The handoff, "well-known token formats"; docs/handoff.md, Token
 * formats), as data: facts taken from gitleaks' default rule set (`config/gitleaks.toml`, MIT) and
 * secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend` 13.1.0, MIT), each row
 * naming its provider and the rule it comes from; a few rows of our own (`hark-memory`) where neither has
 * the format. ./token-formats matches them. Pure data.
 */
/** How far after a provider's name a keyword token's value may start (gitleaks allows about 30). */
export const KEYWORD_WINDOW = 48
/** Shape and entropy checks read at most this much of a candidate. */
export const CHECK_LIMIT = 512

/** An alphabet, written as in a character class: `A-Za-z0-9_-`. */
export type Alphabet = string

const AN = 'A-Za-z0-9'
const W = 'A-Za-z0-9_'
const WD = 'A-Za-z0-9_-'
const HEX = '0-9a-fA-F'
const HEXD = '0-9a-fA-F-'
const B64 = 'A-Za-z0-9+/='
const UPN = 'A-Z0-9'
const WDOT = 'A-Za-z0-9_.=-'
const AND = 'A-Za-z0-9-'
export const DIGITS = '0-9'

/** A prefixed token format. */
export interface PrefixedFormat {
  readonly kind: 'prefixed'
  /** The provider and the token's kind, for people. */
  readonly provider: string
  /** Where the facts come from: `gitleaks <rule id>` or `secretlint <rule>`. */
  readonly source: string
  /** Literal prefixes, matched case-sensitively unless `anyCase`. */
  readonly prefixes: readonly string[]
  readonly anyCase?: boolean
  /** The alphabet of what follows the prefix, and how long that run may be. */
  readonly body: Alphabet
  readonly min: number
  readonly max: number
  /** A longer run is still this token (the rule set's pattern has no end boundary): the whole run goes. */
  readonly open?: boolean
  /** The body (at most CHECK_LIMIT characters of it) must match this. */
  readonly shape?: RegExp
  /** The whole token's Shannon entropy (bits a character) must reach this (the rule set's own threshold). */
  readonly entropy?: number
  /** A token this matches stays as written (the rule set's allowlist: documentation examples). */
  readonly allow?: RegExp
  /** The token starts this many characters before its keyword, all of this alphabet (Azure's `…8Q~…`). */
  readonly lead?: { readonly n: number; readonly body: Alphabet }
}

/** A keyword token format: a value near the provider's name. */
export interface KeywordFormat {
  readonly kind: 'keyword'
  readonly provider: string
  readonly source: string
  /** The provider's names, in lower case. */
  readonly keywords: readonly string[]
  /** The value's possible forms. */
  readonly values: readonly { readonly body: Alphabet; readonly min: number; readonly max: number; readonly shape?: RegExp }[]
}

export type TokenFormat = PrefixedFormat | KeywordFormat

const prefixed = (
  provider: string,
  source: string,
  prefixes: string | readonly string[],
  body: Alphabet,
  min: number,
  max: number,
  more: Partial<Pick<PrefixedFormat, 'anyCase' | 'open' | 'shape' | 'entropy' | 'allow' | 'lead'>> = {},
): PrefixedFormat => ({ kind: 'prefixed', provider, source, prefixes: typeof prefixes === 'string' ? [prefixes] : prefixes, body, min, max, ...more })

const keyword = (provider: string, source: string, keywords: string | readonly string[], ...values: KeywordFormat['values']): KeywordFormat => ({
  kind: 'keyword',
  provider,
  source,
  keywords: typeof keywords === 'string' ? [keywords] : keywords,
  values,
})
const v = (body: Alphabet, min: number, max = min, shape?: RegExp): KeywordFormat['values'][number] => (shape === undefined ? { body, min, max } : { body, min, max, shape })
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** The formats, alphabetical by provider. */
export const TOKEN_FORMATS: readonly TokenFormat[] = [
  prefixed('1Password secret key', 'gitleaks 1password-secret-key', 'A3-', UPN + '-', 36, 37, { shape: /^[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/, entropy: 3.8 }),
  prefixed('1Password service account token', 'gitleaks 1password-service-account-token; secretlint 1password', 'ops_eyJ', B64, 100, 4000, { open: true, entropy: 4 }),
  keyword('Adafruit API key', 'gitleaks adafruit-api-key', 'adafruit', v(WD, 32)),
  keyword('Adobe client id', 'gitleaks adobe-client-id', 'adobe', v(HEX, 32)),
  prefixed('Adobe client secret', 'gitleaks adobe-client-secret', 'p8e-', AN, 32, 32, { entropy: 2 }),
  prefixed('age secret key', 'gitleaks age-secret-key', 'AGE-SECRET-KEY-1', UPN, 58, 58),
  keyword('Airtable API key', 'gitleaks airtable-api-key', 'airtable', v(AN, 17)),
  keyword('Algolia API key', 'gitleaks algolia-api-key', 'algolia', v(AN, 32)),
  prefixed('Alibaba Cloud AccessKey id', 'gitleaks alibaba-access-key-id', 'LTAI', AN, 20, 20, { entropy: 2 }),
  keyword('Alibaba Cloud secret key', 'gitleaks alibaba-secret-key', 'alibaba', v(AN, 30)),
  // gitleaks and secretlint want 93 characters then `AA`; any run this long after `sk-ant-` is taken.
  prefixed('Anthropic API or admin key', 'gitleaks anthropic-api-key, anthropic-admin-api-key; secretlint anthropic', 'sk-ant-', WD, 32, 200, { open: true, entropy: 3 }),
  prefixed('Artifactory API key', 'gitleaks artifactory-api-key', 'AKCp', AN, 69, 69, { entropy: 4.5 }),
  prefixed('Artifactory reference token', 'gitleaks artifactory-reference-token', 'cmVmd', AN, 59, 59, { entropy: 4.5 }),
  keyword('Asana client id or secret', 'gitleaks asana-client-id, asana-client-secret', 'asana', v(DIGITS, 16), v(AN, 32)),
  prefixed('Atlassian API token', 'gitleaks atlassian-api-token', 'ATATT3', WDOT, 150, 250, { entropy: 3.5 }),
  keyword('Atlassian API token (legacy)', 'gitleaks atlassian-api-token', ['atlassian', 'confluence', 'jira'], v(AN, 24, 24, /^[a-zA-Z0-9]{20}[a-fA-F0-9]{4}$/)),
  prefixed('Authress service client key', 'gitleaks authress-service-client-access-key', ['sc_', 'ext_', 'scauth_', 'authress_'], 'A-Za-z0-9_.+/=-', 50, 200, {
    shape: /^[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}$/i,
  }),
  prefixed('AWS access key id', 'gitleaks aws-access-token; secretlint aws', ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA'], UPN, 16, 16, { entropy: 3, allow: /EXAMPLE$/ }),
  prefixed('AWS access key id (A3T)', 'gitleaks aws-access-token', 'A3T', UPN, 17, 17, { entropy: 3, allow: /EXAMPLE$/ }),
  prefixed('Azure AD client secret', 'gitleaks azure-ad-client-secret', 'Q~', 'A-Za-z0-9_~.-', 31, 34, { lead: { n: 4, body: 'A-Za-z0-9_~.' }, entropy: 3 }),
  keyword('Beamer API token', 'gitleaks beamer-api-token', 'beamer', v(WDOT, 46, 46, /^b_/)),
  keyword('Bitbucket client id or secret', 'gitleaks bitbucket-client-id, bitbucket-client-secret', 'bitbucket', v(AN, 32), v('A-Za-z0-9=_-', 64)),
  keyword('Bittrex access or secret key', 'gitleaks bittrex-access-key, bittrex-secret-key', 'bittrex', v(AN, 32)),
  keyword('Cisco Meraki API key', 'gitleaks cisco-meraki-api-key', 'meraki', v(HEX, 40)),
  prefixed('ClickHouse Cloud API secret', 'gitleaks clickhouse-cloud-api-secret-key', '4b1d', AN, 38, 38, { entropy: 3 }),
  prefixed('Clojars API token', 'gitleaks clojars-api-token', 'CLOJARS_', AN, 60, 60, { anyCase: true, open: true, entropy: 2 }),
  keyword('Cloudflare API key', 'gitleaks cloudflare-api-key, cloudflare-global-api-key', 'cloudflare', v(WD, 40), v(HEX, 37)),
  prefixed('Cloudflare API token', 'secretlint cloudflare', ['cfk_', 'cfut_', 'cfat_'], AN, 48, 48, { shape: /^[A-Za-z0-9]{40}[0-9a-f]{8}$/ }),
  prefixed('Cloudflare Origin CA key', 'gitleaks cloudflare-origin-ca-key', 'v1.0-', HEXD, 171, 171, { shape: /^[a-f0-9]{24}-[a-f0-9]{146}$/, entropy: 2 }),
  keyword('Codecov access token', 'gitleaks codecov-access-token', 'codecov', v(AN, 32)),
  keyword('Cohere API token', 'gitleaks cohere-api-token', ['cohere', 'co_api_key'], v(AN, 40)),
  keyword('Coinbase access token', 'gitleaks coinbase-access-token', 'coinbase', v(WD, 64)),
  keyword('Confluent access token or secret', 'gitleaks confluent-access-token, confluent-secret-key', 'confluent', v(AN, 16), v(AN, 64)),
  keyword('Contentful delivery token', 'gitleaks contentful-delivery-api-token', 'contentful', v('A-Za-z0-9=_-', 43)),
  prefixed('Databricks API token', 'gitleaks databricks-api-token; secretlint databricks', 'dapi', HEXD, 32, 34, { shape: /^[a-fA-F0-9]{32}(?:-\d)?$/, entropy: 3 }),
  keyword('Datadog access token', 'gitleaks datadog-access-token', 'datadog', v(AN, 40)),
  prefixed('Defined Networking API token', 'gitleaks defined-networking-api-token', 'dnkey-', 'A-Za-z0-9=_-', 79, 79),
  prefixed('DigitalOcean token', 'gitleaks digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], HEX, 64, 64, { entropy: 3 }),
  keyword('Discord API token, client id or secret', 'gitleaks discord-api-token, discord-client-id, discord-client-secret', 'discord', v(HEX, 64), v(DIGITS, 18), v('A-Za-z0-9=_-', 32)),
  prefixed('Docker Hub personal access token', 'secretlint docker', 'dckr_pat_', WD, 27, 27),
  prefixed('Doppler API token', 'gitleaks doppler-api-token', 'dp.pt.', AN, 43, 43, { entropy: 2 }),
  keyword('Drone CI access token', 'gitleaks droneci-access-token', 'droneci', v(AN, 32)),
  keyword('Dropbox API token', 'gitleaks dropbox-api-token, dropbox-long-lived-api-token, dropbox-short-lived-api-token', 'dropbox', v(AN, 15), v('A-Za-z0-9=_-', 64, 64, /^[a-z0-9]{11}AAAAAAAAAA/i), v('A-Za-z0-9=_.-', 138, 138, /^sl\./)),
  prefixed('Duffel API token', 'gitleaks duffel-api-token', ['duffel_test_', 'duffel_live_'], 'A-Za-z0-9_=-', 43, 43, { entropy: 2 }),
  prefixed('Dynatrace API token', 'gitleaks dynatrace-api-token', 'dt0c01.', AN + '.', 89, 89, { shape: /^[a-z0-9]{24}\.[a-z0-9]{64}$/i, entropy: 4 }),
  prefixed('EasyPost API token', 'gitleaks easypost-api-token, easypost-test-api-token', ['EZAK', 'EZTK'], AN, 54, 54, { entropy: 2 }),
  keyword('Etsy access token', 'gitleaks etsy-access-token', 'etsy', v(AN, 24)),
  prefixed('Facebook page access token', 'gitleaks facebook-page-access-token', ['EAAM', 'EAAC'], AN, 100, 4000, { open: true, entropy: 4 }),
  keyword('Facebook secret', 'gitleaks facebook-secret', 'facebook', v(HEX, 32)),
  keyword('Fastly API token', 'gitleaks fastly-api-token', 'fastly', v('A-Za-z0-9=_-', 32)),
  prefixed('Figma personal access token', 'secretlint figma', 'figd_', WD, 40, 200),
  keyword('Finicity API token or secret', 'gitleaks finicity-api-token, finicity-client-secret', 'finicity', v(HEX, 32), v(AN, 20)),
  keyword('Finnhub access token', 'gitleaks finnhub-access-token', 'finnhub', v(AN, 20)),
  keyword('Flickr access token', 'gitleaks flickr-access-token', 'flickr', v(AN, 32)),
  prefixed('Flutterwave key', 'gitleaks flutterwave-encryption-key, flutterwave-secret-key, flutterwave-public-key', ['FLWSECK_TEST-', 'FLWPUBK_TEST-'], AND, 12, 34, { shape: /^[a-h0-9]{12}$|^[a-h0-9]{32}-X$/i, entropy: 2 }),
  prefixed('Fly.io access token', 'gitleaks flyio-access-token', 'fo1_', WD, 43, 43, { entropy: 4 }),
  prefixed('Fly.io macaroon token', 'gitleaks flyio-access-token', ['fm1a_', 'fm1r_', 'fm2_'], B64, 100, 4000, { open: true, entropy: 4 }),
  prefixed('Frame.io API token', 'gitleaks frameio-api-token', 'fio-u-', 'A-Za-z0-9_=-', 64, 64),
  keyword('FreshBooks access token', 'gitleaks freshbooks-access-token', 'freshbooks', v(AN, 64)),
  prefixed('Google API key', 'gitleaks gcp-api-key', 'AIza', WD, 35, 35, { entropy: 4 }),
  prefixed('GitHub token', 'gitleaks github-pat, github-oauth, github-app-token, github-refresh-token; secretlint github', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], AN, 36, 36, { open: true, entropy: 3 }),
  prefixed('GitHub fine-grained token', 'gitleaks github-fine-grained-pat; secretlint github', 'github_pat_', W, 82, 82, { open: true, entropy: 3 }),
  keyword('Gitter access token', 'gitleaks gitter-access-token', 'gitter', v(WD, 40)),
  prefixed('GitLab CI/CD job token', 'gitleaks gitlab-cicd-job-token', 'glcbt-', WD, 22, 26, { shape: /^[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}$/, entropy: 3 }),
  prefixed('GitLab token', 'gitleaks gitlab-deploy-token, gitlab-feature-flag-client-token, gitlab-feed-token, gitlab-runner-authentication-token, gitlab-scim-token', ['gldt-', 'glffct-', 'glft-', 'glsoat-'], WD, 20, 20, { open: true, entropy: 3 }),
  prefixed('GitLab runner authentication token', 'gitleaks gitlab-runner-authentication-token, -routable', 'glrt-', WDOT, 20, 310, { shape: /^[\w-]{20}$|^t\d_[\w-]{27,300}\.[0-9a-z]{9}$/, entropy: 3 }),
  prefixed('GitLab personal access token', 'gitleaks gitlab-pat, gitlab-pat-routable; secretlint gitlab', 'glpat-', WDOT, 20, 310, { shape: /^[\w-]{20,128}$|^[\w-]{27,300}\.[0-9a-z]{9}$/, entropy: 3 }),
  prefixed('GitLab incoming mail token', 'gitleaks gitlab-incoming-mail-token', 'glimt-', WD, 25, 25, { open: true, entropy: 3 }),
  prefixed('GitLab Kubernetes agent token', 'gitleaks gitlab-kubernetes-agent-token', 'glagent-', WD, 50, 50, { open: true, entropy: 3 }),
  prefixed('GitLab OIDC application secret', 'gitleaks gitlab-oauth-app-secret', 'gloas-', WD, 64, 64, { open: true, entropy: 3 }),
  prefixed('GitLab pipeline trigger token', 'gitleaks gitlab-ptt', 'glptt-', HEX, 40, 40, { open: true, entropy: 3 }),
  prefixed('GitLab runner registration token', 'gitleaks gitlab-rrt', 'GR1348941', WD, 20, 20, { open: true, entropy: 3 }),
  prefixed('GitLab session cookie', 'gitleaks gitlab-session-cookie', '_gitlab_session=', 'a-z0-9', 32, 32, { open: true, entropy: 3 }),
  keyword('GoCardless API token', 'gitleaks gocardless-api-token', 'gocardless', v('A-Za-z0-9_=-', 45, 45, /^live_/i)),
  prefixed('Grafana API key', 'gitleaks grafana-api-key', 'eyJrIjoi', B64, 70, 400, { entropy: 3 }),
  prefixed('Grafana Cloud API token', 'gitleaks grafana-cloud-api-token; secretlint grafana', 'glc_', B64, 32, 403, { entropy: 3 }),
  prefixed('Grafana service account token', 'gitleaks grafana-service-account-token; secretlint grafana', 'glsa_', W, 41, 41, { shape: /^[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}$/, entropy: 3 }),
  prefixed('Groq API key', 'secretlint groq', 'gsk_', AN, 52, 52),
  prefixed('Harness access token', 'gitleaks harness-api-key', ['pat.', 'sat.'], 'A-Za-z0-9_.-', 68, 68, { shape: /^[a-zA-Z0-9_-]{22}\.[a-zA-Z0-9]{24}\.[a-zA-Z0-9]{20}$/ }),
  prefixed('HashiCorp Terraform API token', 'gitleaks hashicorp-tf-api-token', '.atlasv1.', 'A-Za-z0-9=_-', 60, 70, { lead: { n: 14, body: AN }, entropy: 3.5 }),
  keyword('Heroku API key', 'gitleaks heroku-api-key', 'heroku', v(HEXD, 36, 36, UUID)),
  prefixed('Heroku API key (v2)', 'gitleaks heroku-api-key-v2', 'HRKU-AA', WD, 58, 58, { entropy: 4 }),
  keyword('HubSpot API key', 'gitleaks hubspot-api-key', 'hubspot', v(HEXD, 36, 36, UUID)),
  // gitleaks and secretlint: 34 letters; digits are allowed here too, the length still exact.
  prefixed('Hugging Face access token', 'gitleaks huggingface-access-token; secretlint huggingface', 'hf_', AN, 34, 34, { entropy: 2 }),
  prefixed('Hugging Face organization token', 'gitleaks huggingface-organization-api-token', 'api_org_', AN, 34, 34, { entropy: 2 }),
  prefixed('Infracost API token', 'gitleaks infracost-api-token', 'ico-', AN, 32, 32, { entropy: 3 }),
  keyword('Intercom API key', 'gitleaks intercom-api-key', 'intercom', v('A-Za-z0-9=_-', 60)),
  prefixed('Intra42 client secret', 'gitleaks intra42-client-secret', ['s-s4t2ud-', 's-s4t2af-'], HEX, 64, 64, { entropy: 3 }),
  keyword('JFrog API key or identity token', 'gitleaks jfrog-api-key, jfrog-identity-token', ['jfrog', 'artifactory', 'bintray', 'xray'], v(AN, 73), v(AN, 64)),
  prefixed('JSON Web Token', 'gitleaks jwt', 'eyJ', 'A-Za-z0-9_./\\=+-', 36, 8000, {
    open: true,
    shape: /^[a-zA-Z0-9]{16,}\.ey[a-zA-Z0-9/\\_-]{17,}\.?/,
    entropy: 3,
  }),
  prefixed('JSON Web Token, base64', 'gitleaks jwt-base64', 'ZXlK', 'A-Za-z0-9/\\_+=-', 44, 8000, { open: true, entropy: 2 }),
  keyword('Kraken access token', 'gitleaks kraken-access-token', 'kraken', v('A-Za-z0-9/=_+-', 80, 90)),
  keyword('KuCoin access token or secret', 'gitleaks kucoin-access-token, kucoin-secret-key', 'kucoin', v(HEX, 24), v(HEXD, 36, 36, UUID)),
  keyword('LaunchDarkly access token', 'gitleaks launchdarkly-access-token', 'launchdarkly', v('A-Za-z0-9=_-', 40)),
  prefixed('Linear API key', 'gitleaks linear-api-key; secretlint linear', 'lin_api_', W, 32, 128, { entropy: 2 }),
  keyword('Linear client secret', 'gitleaks linear-client-secret', 'linear', v(HEX, 32)),
  keyword('LinkedIn client id or secret', 'gitleaks linkedin-client-id, linkedin-client-secret', ['linkedin', 'linked_in', 'linked-in'], v(AN, 14), v(AN, 16)),
  keyword('Mailchimp API key', 'gitleaks mailchimp-api-key', 'mailchimp', v(AND, 37, 37, /^[a-f0-9]{32}-us\d\d$/i)),
  keyword('Mailgun key', 'gitleaks mailgun-private-api-token, mailgun-pub-key, mailgun-signing-key', 'mailgun', v(AND, 36, 39, /^(?:key|pubkey)-[a-f0-9]{32}$/i), v(AND, 50, 50, /^[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}$/i)),
  keyword('Mapbox API token', 'gitleaks mapbox-api-token', 'mapbox', v(AN + '.', 86, 86, /^pk\.[a-z0-9]{60}\.[a-z0-9]{22}$/i)),
  keyword('Mattermost access token', 'gitleaks mattermost-access-token', 'mattermost', v(AN, 26)),
  prefixed('MaxMind license key', 'gitleaks maxmind-license-key', '_mmk', AN, 0, 0, { lead: { n: 36, body: W }, entropy: 4 }),
  keyword('MessageBird API token or client id', 'gitleaks messagebird-api-token, messagebird-client-id', ['messagebird', 'message-bird', 'message_bird'], v(AN, 25), v(HEXD, 36, 36, UUID)),
  keyword('Netlify access token', 'gitleaks netlify-access-token', 'netlify', v('A-Za-z0-9=_-', 40, 46)),
  prefixed('New Relic user API key', 'gitleaks new-relic-user-api-key', 'NRAK-', AN, 27, 27),
  prefixed('New Relic browser API token', 'gitleaks new-relic-browser-api-token', 'NRJS-', HEX, 19, 19),
  prefixed('New Relic insert key', 'gitleaks new-relic-insert-key', 'NRII-', AND, 32, 32),
  keyword('New Relic user API id', 'gitleaks new-relic-user-api-id', ['new-relic', 'newrelic', 'new_relic'], v(AN, 64)),
  prefixed('Notion API token', 'gitleaks notion-api-token; secretlint notion', 'ntn_', AN, 46, 46, { shape: /^[0-9]{11}[A-Za-z0-9]{35}$/, entropy: 4 }),
  prefixed('npm access token', 'gitleaks npm-access-token; secretlint npm', 'npm_', AN, 36, 36, { anyCase: true, entropy: 2 }),
  keyword('New York Times access token', 'gitleaks nytimes-access-token', ['nytimes', 'new-york-times', 'newyorktimes'], v('A-Za-z0-9=_-', 32)),
  prefixed('Octopus Deploy API key', 'gitleaks octopus-deploy-api-key', 'API-', UPN, 26, 26, { entropy: 3 }),
  keyword('Okta access token', 'gitleaks okta-access-token', 'okta', v('A-Za-z0-9_=-', 42, 42, /^00/)),
  // gitleaks and secretlint want the `T3BlbkFJ` marker in the middle; any long run after these prefixes is taken.
  prefixed('OpenAI API key', 'gitleaks openai-api-key; secretlint openai', ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], WD, 32, 200, { open: true, entropy: 3 }),
  prefixed('OpenAI API key (legacy)', 'gitleaks openai-api-key; secretlint openai', 'sk-', AN, 40, 64, { open: true, shape: /[A-Z]/, entropy: 3 }),
  prefixed('OpenShift user token', 'gitleaks openshift-user-token', 'sha256~', WD, 43, 43, { entropy: 3.5 }),
  prefixed('Perplexity API key', 'gitleaks perplexity-api-key', 'pplx-', AN, 48, 48, { entropy: 4 }),
  keyword('Plaid client id or secret', 'gitleaks plaid-client-id, plaid-secret-key', 'plaid', v(AN, 24), v(AN, 30)),
  prefixed('Plaid access token', 'gitleaks plaid-api-token', ['access-sandbox-', 'access-development-', 'access-production-'], HEXD, 36, 36, { shape: UUID }),
  prefixed('PlanetScale token or password', 'gitleaks planetscale-api-token, planetscale-oauth-token, planetscale-password', ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'], WDOT, 32, 64, { entropy: 3 }),
  prefixed('Postman API token', 'gitleaks postman-api-token', 'PMAK-', HEXD, 59, 59, { shape: /^[a-f0-9]{24}-[a-f0-9]{34}$/i, entropy: 3 }),
  prefixed('Prefect API token', 'gitleaks prefect-api-token', 'pnu_', AN, 36, 36, { entropy: 2 }),
  keyword('Private AI API token', 'gitleaks privateai-api-token', ['privateai', 'private_ai', 'private-ai'], v(AN, 32)),
  prefixed('Pulumi API token', 'gitleaks pulumi-api-token', 'pul-', HEX, 40, 40, { entropy: 2 }),
  // gitleaks wants `pypi-AgEIcHlwaS5vcmc` (the base64 of the macaroon's location); `pypi-AgE` and a long run are taken.
  prefixed('PyPI upload token', 'gitleaks pypi-upload-token', 'pypi-AgE', WD, 50, 1000, { open: true, entropy: 3 }),
  keyword('RapidAPI access token', 'gitleaks rapidapi-access-token', 'rapidapi', v(WD, 50)),
  prefixed('ReadMe API token', 'gitleaks readme-api-token', 'rdme_', 'a-z0-9', 70, 70, { entropy: 2 }),
  prefixed('RubyGems API token', 'gitleaks rubygems-api-token', 'rubygems_', HEX, 48, 48, { entropy: 2 }),
  prefixed('Scalingo API token', 'gitleaks scalingo-api-token', 'tk-us-', WD, 48, 48, { entropy: 2 }),
  keyword('Sendbird access id or token', 'gitleaks sendbird-access-id, sendbird-access-token', 'sendbird', v(HEXD, 36, 36, UUID), v(HEX, 40)),
  prefixed('SendGrid API token', 'gitleaks sendgrid-api-token; secretlint sendgrid', 'SG.', WDOT, 66, 66, { shape: /^[\w-]{16,}\.[\w-]{16,}$/, entropy: 2 }),
  prefixed('Sendinblue API token', 'gitleaks sendinblue-api-token', 'xkeysib-', AND, 81, 81, { shape: /^[a-f0-9]{64}-[a-z0-9]{16}$/i, entropy: 2 }),
  keyword('Sentry access token (old)', 'gitleaks sentry-access-token', 'sentry', v(HEX, 64)),
  prefixed('Sentry organization token', 'gitleaks sentry-org-token', 'sntrys_eyJpYXQiO', 'A-Za-z0-9+/=_', 60, 500, { entropy: 4.5 }),
  prefixed('Sentry user token', 'gitleaks sentry-user-token', 'sntryu_', HEX, 64, 64, { entropy: 3.5 }),
  prefixed('SettleMint access token', 'gitleaks settlemint-application-access-token, -personal-, -service-', ['sm_aat_', 'sm_pat_', 'sm_sat_'], AN, 16, 16, { entropy: 3 }),
  prefixed('Shippo API token', 'gitleaks shippo-api-token', ['shippo_live_', 'shippo_test_'], HEX, 40, 40, { entropy: 2 }),
  prefixed('Shopify token or shared secret', 'gitleaks shopify-access-token, -custom-, -private-app-, -shared-secret; secretlint shopify', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], AN, 32, 64, { entropy: 2 }),
  prefixed('Slack app-level token', 'gitleaks slack-app-token; secretlint slack', 'xapp-', AND, 20, 300, { shape: /^\d-[A-Z0-9]+-\d+-[a-z0-9]+$|^\d-[A-Z0-9]+(?:-[A-Z0-9]+){1,4}$/i, entropy: 2 }),
  prefixed('Slack bot token', 'gitleaks slack-bot-token, slack-legacy-bot-token', 'xoxb-', AND, 20, 300, { shape: /^[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*$|^[0-9]{8,14}-[a-zA-Z0-9]{18,26}$/, entropy: 2 }),
  prefixed('Slack configuration token', 'gitleaks slack-config-access-token', ['xoxe.xoxb-', 'xoxe.xoxp-'], AN + '-', 165, 168, { shape: /^\d-[A-Z0-9]{163,166}$/i, entropy: 2 }),
  prefixed('Slack configuration refresh token', 'gitleaks slack-config-refresh-token', 'xoxe-', AN + '-', 148, 148, { shape: /^\d-[A-Z0-9]{146}$/i, entropy: 2 }),
  prefixed('Slack legacy token', 'gitleaks slack-legacy-token', ['xoxo-', 'xoxs-'], AND, 20, 300, { shape: /^\d+-\d+-\d+-[a-fA-F\d]+$/, entropy: 2 }),
  // gitleaks: `xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}`, `xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}`; secretlint slack takes
  // any groups of letters and digits joined by `-`. Digits first (the team's id) and 20 characters at least keep file names and
  // placeholders (`xoxo-indieweb-1.jpg`, `xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere`) out.
  prefixed('Slack legacy workspace token', 'gitleaks slack-legacy-workspace-token; secretlint slack', ['xoxa-', 'xoxr-'], AND, 10, 300, { shape: /^(?:\d-)?[0-9a-zA-Z]{8,48}$|^(?:\d-)?\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/, entropy: 2 }),
  prefixed('Slack user token', 'gitleaks slack-user-token; secretlint slack', 'xoxp-', AND, 20, 300, { shape: /^(?:[0-9]{10,13}-){3}[a-zA-Z0-9-]{28,34}$|^\d{5,}(?:-[a-zA-Z0-9]{1,40}){1,6}$/, entropy: 2 }),
  keyword('Snyk API token', 'gitleaks snyk-api-token', 'snyk', v(HEXD, 36, 36, UUID)),
  keyword('Sonar token', 'gitleaks sonar-api-token', ['sonar_token', 'sonar.token', 'sonar-token', 'sonar_login', 'sonar.login', 'sonartoken', 'sonar token', 'sonar login'], v('A-Za-z0-9=_-', 40, 44, /^(?:sq[apu]_)?[a-z0-9]{40}$/i)),
  prefixed('Sonar token (prefixed)', 'gitleaks sonar-api-token (value form)', ['squ_', 'sqp_', 'sqa_'], HEX, 40, 40, { entropy: 3 }),
  prefixed('Sourcegraph access token', 'gitleaks sourcegraph-access-token', 'sgp_', W, 40, 61, { shape: /^(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}$|^[a-fA-F0-9]{40}$/, entropy: 3 }),
  keyword('Sourcegraph access token (bare)', 'gitleaks sourcegraph-access-token', 'sourcegraph', v(HEX, 40)),
  prefixed('Square access token', 'gitleaks square-access-token', ['sq0atp-', 'EAAA'], WD, 22, 60, { entropy: 2 }),
  keyword('Squarespace access token', 'gitleaks squarespace-access-token', 'squarespace', v(HEXD, 36, 36, UUID)),
  prefixed('Stripe secret or restricted key', 'gitleaks stripe-access-token; secretlint stripe', ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], AN, 10, 99, { open: true, entropy: 2 }),
  keyword('Sumo Logic access id or token', 'gitleaks sumologic-access-id, sumologic-access-token', 'sumo', v(AN, 14, 14, /^su/), v(AN, 64)),
  prefixed('Tailscale key', 'secretlint tailscale', 'tskey-', 'A-Za-z0-9_-', 28, 122, { shape: /^[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}$/ }),
  keyword('Telegram bot token', 'gitleaks telegram-bot-api-token', 'telegr', v('A-Za-z0-9_:-', 40, 51, /^[0-9]{5,16}:A[a-z0-9_-]{34}$/i)),
  keyword('Travis CI access token', 'gitleaks travisci-access-token', 'travis', v(AN, 22)),
  prefixed('Twilio API key', 'gitleaks twilio-api-key', 'SK', HEX, 32, 32, { entropy: 3 }),
  keyword('Twitch API token', 'gitleaks twitch-api-token', 'twitch', v(AN, 30)),
  keyword(
    'Twitter token, key or secret',
    'gitleaks twitter-access-secret, -access-token, -api-key, -api-secret, -bearer-token',
    'twitter',
    v(AN, 45),
    v(AN, 25),
    v(AN, 50),
    v(AND, 36, 66, /^[0-9]{15,25}-[a-zA-Z0-9]{20,40}$/),
    v('A-Za-z0-9%', 102, 122, /^A{22}/),
  ),
  prefixed('Typeform API token', 'gitleaks typeform-api-token', 'tfp_', 'A-Za-z0-9_.=-', 59, 59),
  prefixed('HashiCorp Vault token', 'gitleaks vault-service-token, vault-batch-token; secretlint hashicorp-vault', ['hvs.', 'hvr.'], WD, 90, 120, { entropy: 3.5 }),
  prefixed('HashiCorp Vault batch token', 'gitleaks vault-batch-token; secretlint hashicorp-vault', 'hvb.', WD, 138, 300, { entropy: 4 }),
  prefixed('Vercel token', 'secretlint vercel', ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], AN, 20, 60),
  keyword('Yandex token or key', 'gitleaks yandex-access-token, yandex-api-key, yandex-aws-access-token', 'yandex', v(WDOT, 90, 200, /^t1\.[\w-]+=*\.[\w-]{86}=*$/), v(WD, 39, 42, /^AQVN/), v(WD, 40, 40, /^YC/)),
  keyword('Zendesk secret key', 'gitleaks zendesk-secret-key', 'zendesk', v(AN, 40)),
  // Kept from the earlier hand-written list: widely pasted formats with no rule in either set, each with its provider's documented prefix.
  prefixed('Stripe webhook signing secret', 'hark-memory (Stripe docs: whsec_)', 'whsec_', B64, 24, 200, { open: true }),
  prefixed('Google OAuth client secret', 'hark-memory (Google: GOCSPX-)', 'GOCSPX-', WD, 24, 40, { open: true }),
  prefixed('Google OAuth access token', 'hark-memory (Google: ya29.)', 'ya29.', WD, 20, 2048, { open: true }),
  prefixed('Square OAuth secret', 'hark-memory (Square: sq0csp-)', 'sq0csp-', WD, 40, 60, { entropy: 3 }),
  prefixed('Supabase access token', 'hark-memory (Supabase: sbp_)', 'sbp_', HEX, 40, 40, { entropy: 3 }),
  prefixed('Notion integration token (legacy)', 'hark-memory (Notion: secret_)', 'secret_', AN, 43, 43, { entropy: 4 }),
  prefixed('Mailgun API key (legacy)', 'hark-memory (Mailgun: key-)', 'key-', HEX, 32, 32, { entropy: 3 }),
  prefixed('xAI API key', 'hark-memory (xAI: xai-)', 'xai-', AN, 60, 100, { entropy: 4 }),
  prefixed('Replicate API token', 'hark-memory (Replicate: r8_)', 'r8_', AN, 37, 40, { entropy: 4 }),
]
