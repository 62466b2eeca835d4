/** @module What the fingerprint tests share: a real-shaped 1,500-character abstract. */
export const ABSTRACT_1500 =
  "Chronic kidney disease affects roughly one in ten adults worldwide, yet most patients are " +
  "diagnosed only after substantial loss of renal function. We investigated whether routinely " +
  "collected laboratory values can identify patients at risk of rapid decline several years " +
  "before conventional criteria are met. Using electronic health records from 48,000 adults " +
  "followed for a median of seven years, we trained a gradient boosted model on serum creatinine, " +
  "cystatin C, urine albumin, haemoglobin, blood pressure and medication history. The model was " +
  "validated in two independent cohorts from different health systems. Rapid decline was defined " +
  "as a sustained fall in estimated glomerular filtration rate of at least five millilitres per " +
  "minute per year. In the validation cohorts, the model achieved an area under the receiver " +
  "operating characteristic curve of 0.84 and 0.81, compared with 0.71 and 0.69 for the best " +
  "single marker. Calibration was good across age, sex and ethnic groups, although risk was " +
  "slightly overestimated in patients older than eighty. Albuminuria and the slope of previous " +
  "creatinine measurements contributed most to the predictions. A simulated screening programme " +
  "that referred the top decile of predicted risk to nephrology would have identified 62 percent " +
  "of patients who later progressed, at a cost comparable to current practice. These findings " +
  "suggest that existing laboratory data can support earlier and more targeted kidney care.";
