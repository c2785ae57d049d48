// The word lists the scrub rules (scrub.ts) read: what comes before a name, what is never one, and
// what marks a number as money. Data, not logic: a new language adds words here. The languages are
// those of the operators menuctl knows (data/world-operators.tsv): English, French, Swahili,
// Portuguese, Spanish, Kinyarwanda, Somali and Arabic. Pure.

/** Words that open a message to a person: the capitalised words after them are a name ("Bonjour JEAN"). */
export const GREETINGS = [
  'Dear', 'Hi', 'Hello', // English
  'Bonjour', 'Bonsoir', 'Salut', 'Cher', 'Chère', // French
  'Jambo', 'Habari', 'Karibu', 'Mpendwa', // Swahili ("welcome", "dear")
  'Hola', 'Estimado', 'Estimada', // Spanish
  'Olá', 'Ola', 'Prezado', 'Prezada', 'Caro', 'Cara', // Portuguese
  'Muraho', 'Mwaramutse', // Kinyarwanda
];

/**
 * Titles before a name, as regex sources, in any case; a title after a greeting is kept ("Hi DR. JOHN").
 * French "M." (Monsieur) is not here: it is a title only as written, capital and dot ("m." is metres).
 */
export const HONORIFICS = [
  'Mr\\.?', 'Mrs\\.?', 'Ms\\.?', 'Dr\\.?',
  'Mme\\.?', 'Mlle\\.?', 'Madame', 'Monsieur',
  'Sr\\.?', 'Sra\\.?', 'Srta\\.?', 'Dona',
  'Bw\\.?', 'Bwana', 'Bi\\.', 'Bibi', 'Ndugu', 'Mzee',
  'Mudane', 'Marwo',
];
export const CASED_HONORIFICS = ['M\\.'];

/**
 * Labels a name follows, with a colon ("Recipient: john kamau"): there the name may be written in
 * any case. Regex sources, matched in any case.
 */
export const NAME_LABELS = [
  'name', 'full name', 'account name', 'recipient', 'agent', 'payee', 'beneficiary', 'receiver', 'sender', 'customer',
  'nom', 'prénom', 'destinataire', 'bénéficiaire', 'expéditeur', 'titulaire',
  'jina', 'mpokeaji', 'mtumaji', 'mlengwa',
  'nombre', 'nome', 'destinatário', 'beneficiário', 'titular', 'remitente',
];

/** Phrases that say whose a number or account is: the capitalised words after them are a name. */
export const OWNER_PHRASES = [
  'registered to', 'registered in the name of', 'in the name of', 'belongs to',
  'au nom de', 'enregistré au nom de', 'kwa jina la', 'em nome de', 'a nombre de',
];

/**
 * Words that read like a name next to a number, after a greeting or after "to", but are the
 * messages' own vocabulary: menu words, brands and the operators' names, currencies, the words of a
 * confirmation. Lower case; compared with each candidate word lower-cased.
 */
export const NOT_NAMES = new Set([
  // English
  'to', 'from', 'account', 'acc', 'a/c', 'number', 'no', 'on', 'at', 'for', 'new', 'balance', 'bal', 'phone', 'mobile', 'tel', 'call', 'dial',
  'card', 'send', 'sent', 'pay', 'paid', 'till', 'paybill', 'ref', 'reference', 'contact', 'sms', 'id', 'confirm', 'confirmed', 'enter',
  'agent', 'customer', 'customers', 'client', 'subscriber', 'user', 'member', 'valued', 'sir', 'madam', 'friend', 'the', 'your', 'you', 'my',
  'our', 'please', 'thank', 'thanks', 'welcome', 'other', 'another', 'main', 'menu', 'home', 'back', 'next', 'exit', 'cancel', 'yes', 'ok',
  'money', 'cash', 'bank', 'wallet', 'service', 'services', 'care', 'support', 'help', 'bundle', 'bundles', 'data', 'airtime', 'credit',
  'loan', 'loans', 'savings', 'saving', 'daily', 'weekly', 'monthly', 'plan', 'offer', 'offers', 'transaction', 'transactions', 'tran',
  'trans', 'txn', 'transfer', 'withdraw', 'withdrawal', 'deposit', 'payment', 'amount', 'fee', 'fees', 'charge', 'charges', 'total', 'date',
  'time', 'completed', 'complete', 'successful', 'success', 'failed', 'pending', 'received', 'request', 'code', 'pin', 'otp', 'details',
  'is', 'was', 'has', 'and', 'of', 'in', 'by', 'with', 'via', 'not', 'now', 'today', 'all', 'any', 'mini', 'statement', 'unit', 'units',
  'national', 'identity', 'passport', 'nin', 'nida', 'cni', 'bi', 'nuit', 'passeport', 'kitambulisho', 'cédula', 'network', 'networks', 'message', 'messages', 'stop', 'prepaid', 'postpaid', 'fibre', 'fiber', 'internet', 'voice', 'minutes', 'bills',
  // brands and operators (data/world-operators.tsv), and the money services on them
  'm-pesa', 'mpesa', 'pesa', 'safaricom', 'airtel', 'mtn', 'momo', 'orange', 'vodacom', 'vodafone', 'tigo', 'halotel', 'zantel', 'ttcl',
  'ezypesa', 'moov', 'wave', 'glo', 'africell', 'etisalat', 'telma', 'mvola', 'ecocash', 'econet', 'zamtel', 'lumitel', 'mascom',
  'telecel', 'expresso', 'free', 'lonestar', 'unitel', 'movicel', 'mpamba', 'telesom', 'zaad', 'somtel', 'edahab', 'hormuud', 'evc',
  'golis', 'sahal', 'ethio', 'telebirr', 'mtc', 'tnm', 'lipa', 'fuliza', 'mshwari', 'm-shwari', 'kcb', 'equity', 'bonga', 'okoa', 'jahazi',
  'mastercard', 'visa', 'ussd',
  // currencies
  'ksh', 'kshs', 'kes', 'ugx', 'ush', 'shs', 'tzs', 'tsh', 'tshs', 'rwf', 'frw', 'fcfa', 'cfa', 'xof', 'xaf', 'ghs', 'ngn', 'zmw', 'mwk',
  'mzn', 'mt', 'aoa', 'kz', 'etb', 'birr', 'sos', 'usd', 'eur', 'gbp', 'egp', 'tnd', 'mga', 'ar', 'cdf', 'fc', 'gs', 'pyg', 'bs', 'bob',
  // French
  'votre', 'vous', 'cher', 'chère', 'client', 'cliente', 'abonné', 'abonnée', 'solde', 'montant', 'frais', 'compte', 'numéro', 'téléphone',
  'transfert', 'retrait', 'dépôt', 'envoi', 'reçu', 'envoyé', 'référence', 'réf', 'merci', 'bienvenue', 'accueil', 'retour', 'suivant',
  'crédit', 'forfait', 'forfaits', 'internet', 'paiement', 'facture', 'factures', 'marchand', 'agence', 'argent', 'mon', 'ma', 'mes',
  // Swahili
  'mteja', 'wateja', 'salio', 'kiasi', 'ada', 'tuma', 'toa', 'nunua', 'muda', 'maongezi', 'huduma', 'karibu', 'asante', 'tafadhali',
  'akaunti', 'namba', 'nambari', 'simu', 'wakala', 'mkopo', 'akiba', 'kifurushi', 'vifurushi', 'tena', 'sana', 'kwa', 'ya', 'na', 'ni',
  'tarehe', 'saa', 'imethibitishwa', 'umepokea', 'umetuma', 'jina', 'lako', 'yako', 'wako', 'rafiki', 'ndugu', 'bwana', 'bibi',
  // Portuguese, Spanish
  'caro', 'cara', 'prezado', 'prezada', 'estimado', 'estimada', 'saldo', 'valor', 'montante', 'conta', 'número', 'taxa', 'monto', 'cuenta',
  'usuario', 'usuário', 'gracias', 'obrigado', 'bienvenido', 'bem-vindo', 'recarga', 'transferencia', 'transferência', 'pago', 'pagamento',
  // Kinyarwanda, Somali
  'mukiriya', 'konti', 'macmiil', 'mudane', 'marwo',
]);

/**
 * Currencies written next to an amount, as regex sources: a number with one of these before or
 * after it is money, not a phone number ("UGX 12500000", "12 500 000 FCFA"). Matched in any case.
 */
export const CURRENCIES = [
  'ksh?s?', 'kes', 'ugx', 'ush', 'shs?', 'tzs', 'tshs?', 'rwf', 'frw', 'f ?cfa', 'cfa', 'xof', 'xaf', 'fc', 'cdf', 'ghs', 'gh₵', '₵',
  'ngn', '₦', 'zmw', 'mwk', 'mzn', 'mt', 'aoa', 'kz', 'etb', 'birr', 'sos', 'slsh', 'usd', 'us\\$', '\\$', 'eur', '€', 'gbp', '£', 'egp',
  'tnd', 'dt', 'mru', 'um', 'pkr', 'rs\\.?', '₨', 'bdt', 'tk', '৳', 'php', '₱', 'vnd', '₫', 'thb', '฿', 'pyg', 'gs\\.?', 'bob', 'bs\\.?',
  'hnl', 'gyd', 'htg', 'inr', '₹', 'mga', 'ar', 'kmf', 'sll', 'lrd', 'gmd', 'bwp', 'zar', 'szl', 'lsl', 'francs?', 'shillings?', 'cedis?',
];
