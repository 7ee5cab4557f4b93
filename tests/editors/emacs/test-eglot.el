;;; test-eglot.el --- ascend-lsp through Debian's eglot, in Emacs batch mode  -*- lexical-binding: t; -*-

;; emacs --batch -l editors/emacs/ascend-lsp.el -l tests/editors/emacs/test-eglot.el -f ascend-test-run
;; Environment: ASCEND_BIN (the server), ASCEND_WORK (a scratch directory
;; holding project/, a copy of tests/editors/fixtures/project),
;; ASCEND_RESULTS (where "ok - …" / "not ok - …" lines and the "# pass N",
;; "# fail N" counts go).  Every wait is bounded.

;;; Code:

(require 'cl-lib)
(require 'eglot)
(require 'flymake)
(require 'ascend-lsp)

(defvar ascend-test--results nil)
(defvar ascend-test--pass 0)
(defvar ascend-test--fail 0)
(defconst ascend-test--wait 10 "Seconds for each wait.")

(defmacro ascend-test-check (name &rest body)
  "Run BODY as the check NAME, recording ok or not ok."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body
              (cl-incf ascend-test--pass)
              (push (format "ok - %s" ,name) ascend-test--results))
     (error
      (cl-incf ascend-test--fail)
      (push (format "not ok - %s\n    %s" ,name (error-message-string err)) ascend-test--results))))

(defun ascend-test--eq (actual expected what)
  (unless (equal actual expected)
    (error "%s:\n      expected %S\n      got      %S" what expected actual)))

(defun ascend-test--wait-for (pred what &optional seconds)
  "Process events until PRED is non-nil; signal an error naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds ascend-test--wait))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall pred) (error "Timed out waiting for %s" what))))

(defun ascend-test--pos (pos)
  "POS as LINE:COLUMN, both from 0 (the fixture is ASCII)."
  (save-excursion
    (goto-char pos)
    (format "%d:%d" (1- (line-number-at-pos)) (current-column))))

(defun ascend-test--diags ()
  "The flymake diagnostics of the buffer as sorted strings."
  (mapcar (lambda (d)
            (format "%s-%s %s %s"
                    (ascend-test--pos (flymake-diagnostic-beg d))
                    (ascend-test--pos (flymake-diagnostic-end d))
                    (flymake-diagnostic-type d)
                    (flymake-diagnostic-text d)))
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun ascend-test--wait-diags (expected what)
  "Wait until the buffer's diagnostics are EXPECTED.
eglot sends didChange from an idle timer and flymake starts from one;
idle timers never fire in batch mode, so do both as the timers would."
  (let ((deadline (+ (float-time) ascend-test--wait)) (next 0))
    (while (and (not (equal (ascend-test--diags) expected)) (< (float-time) deadline))
      (eglot--signal-textDocument/didChange)
      (when (> (float-time) next)
        (flymake-start nil t)
        (setq next (+ (float-time) 0.3)))
      (accept-process-output nil 0.05))
    (ascend-test--eq (ascend-test--diags) expected what)))

(defun ascend-test--lines ()
  (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n"))

(defun ascend-test--finish ()
  (with-temp-file (getenv "ASCEND_RESULTS")
    (dolist (r (reverse ascend-test--results)) (insert r "\n"))
    (insert (format "# pass %d\n# fail %d\n" ascend-test--pass ascend-test--fail)))
  (kill-emacs (if (> ascend-test--fail 0) 1 0)))

(defconst ascend-test--head
  '("\"\"\"Tiny training step used by the editor-client tests.\"\"\"" "import torch" "import torch_npu"
    "import torch as th"))

(defun ascend-test-run ()
  "Run every check, write the results and exit."
  (setq ascend-lsp-program (getenv "ASCEND_BIN")
        eglot-sync-connect t
        eglot-connect-timeout ascend-test--wait
        eglot-autoreconnect nil
        eglot-confirm-server-initiated-edits nil
        flymake-no-changes-timeout 0.1)
  (let* ((root (expand-file-name "project" (getenv "ASCEND_WORK")))
         (file (expand-file-name "train.py" root))
         server)
    (condition-case err
        (progn
          (ascend-test-check "ascend-lsp.el registers ascend-lsp for python-mode"
            (find-file file)
            (ascend-test--eq major-mode 'python-mode "major mode")
            (let ((contact (nth 3 (eglot--guess-contact))))
              (ascend-test--eq contact (list ascend-lsp-program) "contact")))

          (ascend-test-check "eglot connects to the ascend-lsp server"
            (apply #'eglot (eglot--guess-contact))
            (setq server (ascend-test--wait-for #'ascend-lsp--server "the eglot connection"))
            (ascend-test--eq (eieio-object-class-name server) 'ascend-lsp-server "server class")
            (ascend-test--eq (plist-get (eglot--server-info server) :name) "ascend-lsp" "serverInfo.name")
            (ascend-test--eq (car (eglot--major-modes server)) 'python-mode "managed major mode"))

          (ascend-test-check "flymake shows the exact diagnostics"
            (ascend-test--wait-diags
             '("7:26-7:34 eglot-warning ascend-lsp [ASC204]: CUDA device string \"cuda:0\"; on Ascend use \"npu:0\""
               "8:18-8:24 eglot-warning ascend-lsp [ASC203]: CUDA-only call .cuda(); on Ascend use .npu()"
               "12:4-12:23 eglot-warning ascend-lsp [ASC201]: CUDA-only API torch.cuda.synchronize; on Ascend use torch.npu.synchronize"
               "13:4-13:20 eglot-warning ascend-lsp [ASC201]: CUDA-only API torch.cuda.utilization; on Ascend use torch.npu.utilization")
             "diagnostics"))

          (ascend-test-check "the preferred quick fix from eglot-code-actions, applied"
            (goto-char (point-min))
            (forward-line 12)
            (let* ((beg (+ (point) 4))
                   (actions (eglot-code-actions beg (+ beg 19) "quickfix"))
                   (preferred (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
              (ascend-test--eq (mapcar (lambda (a) (plist-get a :title)) actions)
                               '("Replace with torch.npu.synchronize" "Disable ASC201 for this line")
                               "quick fix titles")
              (eglot--apply-workspace-edit (plist-get preferred :edit))
              (ascend-test--eq (ascend-test--lines)
                               (append ascend-test--head
                                       '("from torch import cuda" "" ""
                                         "def step(model, batch):" "    device = torch.device(\"cuda:0\")"
                                         "    model = model.cuda()" "    batch = batch.to(device)"
                                         "    loss = model(batch).sum()" "    loss.backward()"
                                         "    th.npu.synchronize()" "    cuda.utilization()" "    return loss" ""))
                               "buffer after the quick fix")))

          (ascend-test-check "diagnostics follow the edit"
            (ascend-test--wait-diags
             '("8:26-8:34 eglot-warning ascend-lsp [ASC204]: CUDA device string \"cuda:0\"; on Ascend use \"npu:0\""
               "9:18-9:24 eglot-warning ascend-lsp [ASC203]: CUDA-only call .cuda(); on Ascend use .npu()"
               "14:4-14:20 eglot-warning ascend-lsp [ASC201]: CUDA-only API torch.cuda.utilization; on Ascend use torch.npu.utilization")
             "diagnostics after the edit"))

          (ascend-test-check "ascend-lsp-fix-all applies the remaining safe fixes"
            (ascend-test--eq (ascend-lsp-fix-all) t "ascend-lsp-fix-all")
            (ascend-test--wait-for (lambda () (member "    model = model.npu()" (ascend-test--lines))) "the edit")
            (ascend-test--eq (ascend-test--lines)
                             (append ascend-test--head
                                     '("from torch import npu as cuda" "" ""
                                       "def step(model, batch):" "    device = torch.device(\"npu:0\")"
                                       "    model = model.npu()" "    batch = batch.to(device)"
                                       "    loss = model(batch).sum()" "    loss.backward()"
                                       "    th.npu.synchronize()" "    cuda.utilization()" "    return loss" ""))
                             "buffer after ascend-lsp-fix-all")
            (ascend-test--wait-diags nil "no diagnostics left"))

          (ascend-test-check "ascend-lsp-report writes the report at the project root"
            (save-buffer)
            (let* ((result (ascend-lsp-report))
                   (path (plist-get result :path)))
              (ascend-test--eq path (expand-file-name "ascend-migration-report.md" root) "report path")
              (with-temp-buffer
                (insert-file-contents path)
                (unless (looking-at "# ")
                  (error "The report starts with %S" (buffer-substring (point) (line-end-position)))))))

          (ascend-test-check "M-x ascend-lsp-report shows the report and leaves point in the source"
            (let ((source (current-buffer)))
              (goto-char (point-max))
              (insert "th.cuda.synchronize()\n")
              (call-interactively #'ascend-lsp-report)
              (ascend-test--eq (window-buffer (selected-window)) source "buffer of the selected window")
              (ascend-test--eq (current-buffer) source "current buffer")
              (let ((report (get-file-buffer (expand-file-name "ascend-migration-report.md" root))))
                (unless (and report (get-buffer-window report))
                  (error "The report is not shown: %S" (mapcar #'window-buffer (window-list))))
                ;; in the report's window, fix-all still acts on the source
                (select-window (get-buffer-window report))
                (ascend-test--eq (ascend-lsp-fix-all) t "ascend-lsp-fix-all from the report")
                (with-current-buffer source
                  (ascend-test--wait-for (lambda () (member "th.npu.synchronize()" (ascend-test--lines)))
                                         "the fix in the source")
                  (ascend-test--eq (last (ascend-test--lines) 2) '("th.npu.synchronize()" "")
                                   "last lines of the source"))
                (select-window (get-buffer-window source))
                (with-current-buffer source (save-buffer)))))

          (ascend-test-check "eglot-shutdown stops the server"
            (let ((proc (jsonrpc--process server)))
              ;; eglot-shutdown signals when `shutdown' is not answered with a result
              (eglot-shutdown server nil ascend-test--wait)
              (ascend-test--wait-for (lambda () (not (process-live-p proc))) "the server to exit")
              ;; Emacs 28's jsonrpc-shutdown deletes the process right after
              ;; sending `exit' (SIGKILL, status 9) unless it already exited.
              (ascend-test--eq (and (memq (process-exit-status proc) '(0 9)) t) t "exit status 0 or 9"))))
      (error
       (cl-incf ascend-test--fail)
       (push (format "not ok - test script error: %s" (error-message-string err)) ascend-test--results)))
    (ascend-test--finish)))

;;; test-eglot.el ends here
