/**
 * The default acceptance language the sandbox serves, version 2026-09-01. Written to look and
 * read like a real merchant agreement, and to exercise the portal's sanitizer with the markup it
 * must keep: headings, paragraphs, ordered and unordered lists, a table with thead/tbody, bold,
 * italic, and links with https: and mailto:.
 */

export const ACCEPTANCE_VERSION = '2026-09-01';

export const TERMS_AND_CONDITIONS = `<h3>Merchant Processing Agreement</h3>
<p>This Merchant Processing Agreement (the <strong>"Agreement"</strong>) is made between the merchant named in the application (the <strong>"Merchant"</strong>), the card-processing service provider (the <strong>"Processor"</strong>) and its sponsoring bank (the <strong>"Bank"</strong>). By signing, the Merchant confirms that it has read, understood and agrees to be bound by every part of this Agreement, including the Fee Schedule and any addenda the Merchant accepts.</p>
<h4>1. Definitions</h4>
<ul>
<li><strong>Card</strong> means a credit, debit, prepaid or charge card issued under the rules of a card network and accepted under this Agreement.</li>
<li><strong>Cardholder</strong> means the person to whom a Card is issued or who is authorized to use it.</li>
<li><strong>Chargeback</strong> means a reversal of a Transaction that a Cardholder or issuer disputes.</li>
<li><strong>Settlement Account</strong> means the business checking account the Merchant names in the application for deposits and debits.</li>
<li><strong>Transaction</strong> means a sale, refund or other exchange in which a Card is used.</li>
</ul>
<h4>2. Acceptance of Cards</h4>
<p>The Merchant will honor every valid Card of the types it has elected to accept, without discrimination and without a minimum or maximum amount except where the network rules allow. The Merchant will:</p>
<ol>
<li>obtain an authorization for every Transaction before completing it;</li>
<li>not split a single sale into two or more Transactions to avoid an authorization;</li>
<li>not add a surcharge to a Card Transaction except as the law and the network rules expressly permit, and then only after the required notice;</li>
<li>give the Cardholder a receipt that shows the last four digits of the Card number only; and</li>
<li>keep a copy of each receipt for at least <em>eighteen (18) months</em>.</li>
</ol>
<h4>3. Settlement and Deposits</h4>
<p>The Processor will credit the Settlement Account with the amount of each batch of Transactions, less refunds, Chargebacks, fees and any reserve, normally within two (2) business days of the batch close. Funds are <em>not</em> held in trust. The Merchant authorizes the Processor and the Bank to debit the Settlement Account for any amount owed under this Agreement, by ACH or otherwise, and to correct any deposit made in error.</p>
<h4>4. Fees</h4>
<p>The Merchant will pay the fees set out in the application and summarized below. Pass-through fees set by the networks may change when the networks change them; the Processor will give at least thirty (30) days' notice of any other increase.</p>
<table>
<thead>
<tr><th>Fee</th><th>Amount</th><th>When charged</th></tr>
</thead>
<tbody>
<tr><td>Qualified discount rate</td><td>1.69%</td><td>Each settled sale</td></tr>
<tr><td>Transaction fee</td><td>$0.10</td><td>Each authorization</td></tr>
<tr><td>Monthly statement fee</td><td>$9.95</td><td>Monthly</td></tr>
<tr><td>Monthly minimum</td><td>$25.00</td><td>Monthly, when discount fees are lower</td></tr>
<tr><td>Chargeback fee</td><td>$25.00</td><td>Each Chargeback</td></tr>
<tr><td>Annual compliance fee</td><td>$79.00</td><td>Once a year</td></tr>
</tbody>
</table>
<h4>5. Chargebacks and Reserves</h4>
<p>The Merchant is responsible for every Chargeback and its fee. If the Processor reasonably believes that the Merchant's risk of loss has increased — for example because of an unusual volume of refunds, Chargebacks or card-not-present sales — it may establish a reserve funded from deposits or from the Settlement Account.</p>
<h4>6. Security of Card Data</h4>
<p>The Merchant will comply with the Payment Card Industry Data Security Standard, will never store the full magnetic-stripe data, card verification code or PIN after authorization, and will report any suspected breach <strong>within twenty-four (24) hours</strong> to <a href="mailto:security@processor.example">security@processor.example</a>. Guidance is available at <a href="https://www.pcisecuritystandards.org/">the PCI Security Standards Council</a>.</p>
<h4>7. Term and Termination</h4>
<p>This Agreement begins when the Processor approves the application and continues for three (3) years, renewing for successive one-year terms unless either party gives notice at least ninety (90) days before the end of a term. Either party may end the Agreement at once for a material breach that is not cured within thirty (30) days of notice.</p>
<h4>8. Electronic Records and Signatures</h4>
<p>The Merchant agrees that this Agreement may be signed electronically and that electronic records of it are as binding as paper. The Merchant may ask for a paper copy at no charge by writing to <a href="mailto:support@processor.example">support@processor.example</a>.</p>
<h4>9. General</h4>
<ul>
<li>This Agreement is governed by the laws of the State of Delaware.</li>
<li>The Merchant may not assign this Agreement without the Processor's written consent.</li>
<li>If any provision is held unenforceable, the rest remains in effect.</li>
</ul>
<p>The full network rules are published at <a href="https://www.example.com/network-rules">https://www.example.com/network-rules</a>.</p>`;

export const PAYMENT_RECEIPT = `<h4>Payment Receipt and Equipment</h4>
<p>The Merchant acknowledges receipt of the equipment and software listed in the application, in good working order, and agrees that:</p>
<ul>
<li>equipment bought outright becomes the Merchant's property when paid for in full;</li>
<li>the <strong>one-time fees</strong> in the application are charged to the Settlement Account on approval; and</li>
<li>the Processor's help desk, at <a href="https://support.processor.example/help">support.processor.example</a>, is the first point of contact for any equipment fault.</li>
</ul>
<p><em>Refurbished equipment carries a ninety (90) day warranty.</em></p>`;

export const INDIVIDUAL_GUARANTY = `<h4>Individual Guaranty</h4>
<p>In consideration of the Processor and the Bank entering into the Agreement, the undersigned individual (the <strong>"Guarantor"</strong>) <strong>personally and unconditionally guarantees</strong> the full and prompt payment and performance of every obligation of the Merchant under the Agreement.</p>
<ol>
<li>This Guaranty is a guaranty of payment, not of collection.</li>
<li>The Guarantor waives notice of acceptance, presentment, demand and protest.</li>
<li>This Guaranty continues after the Agreement ends, for any obligation that arose while it was in effect.</li>
</ol>
<p>The Guarantor authorizes the Processor to obtain consumer credit reports about the Guarantor in connection with the Agreement.</p>`;

export const NEXT_DAY_FUNDING = `<h4>Next Day Funding Addendum</h4>
<p>Batches closed by <strong>8:00 p.m. Eastern Time</strong> on a business day are deposited to the Settlement Account on the next business day. Next day funding requires a Settlement Account at a bank that receives same-day ACH; batches closed later, or on a weekend or holiday, are funded on the following business day.</p>
<p>The Processor may suspend next day funding <em>without notice</em> if it suspects fraud or an increased risk of loss.</p>`;

export const SEASONAL_ADDENDUM = `<h4>Seasonal Merchant Addendum</h4>
<p>During the months the Merchant has declared as its off-season, the monthly minimum is waived and the statement fee is reduced to $4.95. The Merchant must process at least one Transaction a year to keep the account open.</p>`;
